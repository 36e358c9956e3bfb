"""The one layer that runs a verb over files (predict, extract, summarize, index).

:mod:`~sciner.files.inputs` expands the inputs (files, folders, globs, ``-``) and reads them
through the format registry; :mod:`~sciner.files.plan` plans the outputs (one file, a folder
mirroring the inputs, standard output), none over an input; :mod:`~sciner.files.run` runs a
verb's :class:`~sciner.files.run.Step` over the inputs, a chunk of whole papers at a time or
one job per input (worker processes, Ray actors, a manifest to resume from), and reports each
input that fails. Nothing here knows a model or a PDF: the verbs bring their steps, and a
reader's options (a PDF's ``--include``) go through the registry.
"""
