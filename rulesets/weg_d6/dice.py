"""WEG d6 rolls and odds (the Wild Die, Character and Force Points) come with the dice issue."""
