"""Readers and writers of the task's file formats, and BIO <-> span conversion."""
