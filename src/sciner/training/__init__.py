"""Training: the loop skeleton shared by NER training and pretraining, and NER training itself."""
