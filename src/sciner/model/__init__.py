"""The NER network: an offline encoder, word-shape features, and a choice of heads."""
