"""``sciner serve``: the tagger (and a corpus index) over local HTTP.

app.py is the FastAPI application (:func:`~sciner.serve.app.create_app`, :func:`~sciner.serve.app.serve`,
:class:`~sciner.serve.app.Limits`); bodies.py reads a request's paragraphs and answers tagged ones;
batcher.py tags the requests that arrive together in one call; errors.py is the one JSON error;
page.py the page at ``/``; corpus.py the routes and page of ``sciner serve --index``, made from
:data:`sciner.index.questions.QUESTIONS`.
"""
