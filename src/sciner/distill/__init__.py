"""Distillation (issue 13): big knowledge at training time, a small model at tagging time.

- :mod:`~sciner.distill.teacher`: a teacher is ``sciner train`` with the ``[distill] teacher`` overrides.
- :mod:`~sciner.distill.label`: raw paragraphs, tokenized and packed like the training data, labelled
  with the teachers' averaged tag distributions.
- :mod:`~sciner.data.soft_labels`: those soft labels on disk (top-k tag ids + fp16 probabilities, in shards).
- :mod:`~sciner.training.soft`: the student's task: NER training whose loss mixes gold with soft labels.
- :mod:`~sciner.distill.carry`: an encoder folder packed as int8 parts, to carry it to a GPU machine.

Nothing heavy is imported here.
"""
