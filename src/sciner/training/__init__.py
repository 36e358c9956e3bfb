"""Training: the one loop (:mod:`~sciner.training.loop`) and its NER tasks, with gold tags
(:mod:`~sciner.training.ner`) and with soft labels as well (:mod:`~sciner.training.soft`).
Pretraining is a task of the same loop (:mod:`sciner.pretrain.task`)."""
