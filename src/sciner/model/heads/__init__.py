"""Heads: what the network puts on top of the word vectors (BIO tagging, span classification, span fine-tuning)."""
