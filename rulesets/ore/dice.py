"""Star O.R.E. dice: rolls, sets (width and height) and their odds come with the dice issue."""
