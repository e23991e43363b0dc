"""Command-line tools around the rules engine: the terminal game and the duel."""
