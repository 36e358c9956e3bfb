"""Plain helpers shared by several test modules (builders of configs, corpora, paragraphs and
page lines); the shared fixtures are in tests/conftest.py. A test module imports these, never
another test module: ``from helpers.training import tiny_config``."""
