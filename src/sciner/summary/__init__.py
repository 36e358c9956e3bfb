"""Summaries: the stage after tagging. Tagged papers -> per paper, each entity once under one
name (names.py), each value with the name it belongs to and the results its sentences report
(values.py), the values and results of its tables (tables/), the paper's own method and
results (ours.py), put together per paper and over a corpus (assemble.py), read from any input
``sciner predict`` reads (papers.py) and written as JSON, CSV or HTML (render.py); files.py is
``sciner summarize`` as one function, :func:`sciner.summarize`.
"""
