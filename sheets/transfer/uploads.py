"""Refuse an oversized upload from the size its request declares, before storing any of it.

Django hands every uploaded file to the handlers in FILE_UPLOAD_HANDLERS, in order. This
one comes first. When the request's body is larger than a character file may be (plus
room for the form's other fields), it takes the file from the handlers after it, counts
its bytes as they stream past and throws them away, so nothing of it is kept in memory or
in a temporary file. The view then finds an empty OversizedUpload carrying the file's
real size, and refuses it by that size. The body is still read to its end, so the browser
gets that message rather than a reset connection.
"""

from __future__ import annotations

import io
from typing import Any

from django.conf import settings
from django.core.files.uploadedfile import UploadedFile
from django.core.files.uploadhandler import FileUploadHandler, StopFutureHandlers

# The form's other fields (the CSRF token) and the multipart boundaries around the file.
FORM_OVERHEAD_BYTES = 16 * 1024


class OversizedUpload(UploadedFile):
    """A file refused for its size: it holds no content, only the size it had."""

    def __init__(self, *, name: str, content_type: str, size: int) -> None:
        super().__init__(io.BytesIO(b""), name=name, content_type=content_type, size=size)


class SizeLimitHandler(FileUploadHandler):
    refusing = False
    discarding = False

    def handle_raw_input(
        self,
        input_data: Any,
        META: dict,
        content_length: int,
        boundary: bytes,
        encoding: str | None = None,
    ) -> None:
        limit = settings.CHARACTER_IMPORT_MAX_BYTES + FORM_OVERHEAD_BYTES
        self.refusing = content_length > limit
        # None: parse the body the usual way, through the handlers.
        return None

    def new_file(self, *args: Any, **kwargs: Any) -> None:
        super().new_file(*args, **kwargs)
        self.discarding = self.refusing
        if self.discarding:
            # The handlers after this one, which store files, never hear of this one.
            raise StopFutureHandlers

    def receive_data_chunk(self, raw_data: bytes, start: int) -> bytes | None:
        # None drops the chunk; returning it passes it to the next handler, which keeps it.
        return None if self.discarding else raw_data

    def file_complete(self, file_size: int) -> UploadedFile | None:
        if not self.discarding:
            return None
        self.discarding = False
        return OversizedUpload(
            name=self.file_name or "", content_type=self.content_type or "", size=file_size
        )
