"""SWd10 dice: rolls and odds come with the dice issue."""
