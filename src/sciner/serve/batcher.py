"""Requests arriving together are tagged together: one :meth:`Tagger.tag` call at a time."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from sciner.document import Paragraph


@dataclass
class _Job:
    paragraphs: list[Paragraph]
    done: asyncio.Future = field(repr=False)  # type: ignore[type-arg]


class Batcher:
    """Tags the paragraphs of concurrent requests in shared :meth:`Tagger.tag` calls, one at a
    time (the model is not shared between threads), each request decoded as its own paper."""

    def __init__(self, tagger: Any, batch_tokens: int) -> None:
        self.tagger = tagger
        self.batch_tokens = batch_tokens
        self.loop: asyncio.AbstractEventLoop | None = None
        self.queue: asyncio.Queue[_Job] | None = None
        self.worker: asyncio.Task | None = None  # type: ignore[type-arg]

    async def tag(self, paragraphs: list[Paragraph]) -> list[Paragraph]:
        """The tagged ``paragraphs`` of one request."""
        if not paragraphs:
            return []
        loop = asyncio.get_running_loop()
        if self.queue is None or self.loop is not loop:  # the first request (of this event loop)
            self.loop, self.queue = loop, asyncio.Queue()
            self.worker = asyncio.create_task(self._run(self.queue))
        job = _Job(paragraphs, asyncio.get_running_loop().create_future())
        await self.queue.put(job)
        return await job.done

    async def _run(self, queue: "asyncio.Queue[_Job]") -> None:
        while True:
            jobs = [await queue.get()]
            tokens = sum(len(p.tokens) for p in jobs[0].paragraphs)
            while not queue.empty() and tokens < self.batch_tokens:
                job = queue.get_nowait()
                jobs.append(job)
                tokens += sum(len(p.tokens) for p in job.paragraphs)
            jobs = [job for job in jobs if not job.done.cancelled()]  # their clients gave up
            if not jobs:
                continue
            everything = [p for job in jobs for p in job.paragraphs]
            documents = [k for k, job in enumerate(jobs) for _ in job.paragraphs]
            try:
                tagged = await asyncio.to_thread(self.tagger.tag, everything, documents=documents)
            except Exception as err:  # noqa: BLE001 (each waiting request answers with it)
                for job in jobs:
                    if not job.done.done():
                        job.done.set_exception(err)
                continue
            start = 0
            for job in jobs:
                part, start = tagged[start : start + len(job.paragraphs)], start + len(job.paragraphs)
                if not job.done.done():
                    job.done.set_result(part)
