"""Continued pretraining of the encoder with SpanBERT's recipe (Joshi et al., 2020).

- :mod:`~sciner.pretrain.masking`: span masking (geometric span lengths in whole words, 15% budget, 80/10/10 per span).
- :mod:`~sciner.pretrain.objectives`: the masked-LM head and the span boundary objective, both tied to the input embeddings.
- :mod:`~sciner.pretrain.corpus`: raw paragraphs -> single contiguous segments of subwords (no next-sentence prediction).
- :mod:`~sciner.pretrain.batch`: masked segments -> padded tensors and SBO indices.
- :mod:`~sciner.pretrain.config`: :class:`PretrainConfig`, every knob with its reason.
- :mod:`~sciner.pretrain.loop`: the training loop (AdamW, warmup/decay, checkpoints, resume, loss curve).

Nothing heavy is imported here: ``import sciner.pretrain`` stays cheap.
"""
