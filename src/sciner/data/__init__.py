"""Training data: the annotated groups, sentence splitting, dedup, the leave-groups-out split, stats."""
