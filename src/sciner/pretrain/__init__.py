"""Continued pretraining of the encoder with SpanBERT's recipe (Joshi et al., 2020).

- :mod:`~sciner.pretrain.masking`: span masking (geometric span lengths in whole words, 15% budget, 80/10/10 per span).
- :mod:`~sciner.pretrain.objectives`: the masked-LM head and the span boundary objective, both tied to the input embeddings.
- :mod:`~sciner.pretrain.corpus`: raw paragraphs -> single contiguous segments of subwords (no next-sentence prediction).
- :mod:`~sciner.pretrain.batch`: masked segments -> padded tensors and SBO indices.
- :mod:`~sciner.pretrain.task`: pretraining as a task of the one training loop (:mod:`sciner.training.loop`),
  and the final encoder. Its settings are the ``[pretrain]`` table of :mod:`sciner.config`.

Nothing heavy is imported here: ``import sciner.pretrain`` stays cheap.
"""
