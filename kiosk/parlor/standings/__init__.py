"""What the counter reads from the stored games: every table now, members' statistics and rating,
the day's report."""
