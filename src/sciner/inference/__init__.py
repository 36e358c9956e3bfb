"""Inference: load a trained model, batch paragraphs by length, tag files, calibrate decisions."""
