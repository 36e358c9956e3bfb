"""Training: the one loop (:mod:`~sciner.training.loop`) with its checkpoints
(:mod:`~sciner.training.checkpoints`), its NER tasks, with gold tags (:mod:`~sciner.training.ner`)
and with soft labels as well (:mod:`~sciner.training.soft`), and :func:`~sciner.training.train.train`,
which picks the task and runs it. Pretraining is a task of the same loop (:mod:`sciner.pretrain.task`)."""
