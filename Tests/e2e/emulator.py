"""A terminal emulator for tests: pyte's screen with what full-screen programs send that pyte 0.8 gets
wrong or lacks: insert and delete character (ICH, DCH: pyte's insert writes past the line's end, so a delete
after it pulls stale characters back), scroll up and down (SU, SD) and repeat (REP). It answers device
attributes queries as a terminal does (termmap paces its animation by them)."""
import os
import sys

try:
    import pyte
except ImportError:  # Debian's python3-pyte, for a Python of its own (pyenv, a venv)
    sys.path.append("/usr/lib/python3/dist-packages")
    import pyte
from pyte.screens import Margins


class Terminal(pyte.Screen):
    """A screen of `cols` × `rows`; `answer_fd`, when given, receives its answers to queries."""

    def __init__(self, cols, rows, answer_fd=None):
        super().__init__(cols, rows)
        self.answer_fd = answer_fd
        self.last = " "
        self.stream = _Stream(self)

    def feed(self, data):
        self.stream.feed(data)

    def text(self):
        """What it shows, one string a row, without trailing blanks."""
        return [line.rstrip() for line in self.display]

    def write_process_input(self, data):
        if self.answer_fd is not None:
            os.write(self.answer_fd, data.encode())

    def draw(self, data):
        super().draw(data)
        if data:
            self.last = data[-1]

    def _blank(self):
        return self.cursor.attrs._replace(data=" ")

    def insert_characters(self, count=None):
        count = count or 1
        self.dirty.add(self.cursor.y)
        line, x0 = self.buffer[self.cursor.y], self.cursor.x
        for x in range(self.columns - 1, x0 - 1, -1):
            line[x] = line[x - count] if x - count >= x0 else self._blank()

    def delete_characters(self, count=None):
        count = count or 1
        self.dirty.add(self.cursor.y)
        line = self.buffer[self.cursor.y]
        for x in range(self.cursor.x, self.columns):
            line[x] = line[x + count] if x + count < self.columns else self._blank()

    def scroll_up(self, count=None):
        top, bottom = self.margins or Margins(0, self.lines - 1)
        self.dirty.update(range(self.lines))
        for _ in range(count or 1):
            for y in range(top, bottom):
                self.buffer[y] = self.buffer[y + 1]
            self.buffer.pop(bottom, None)

    def scroll_down(self, count=None):
        top, bottom = self.margins or Margins(0, self.lines - 1)
        self.dirty.update(range(self.lines))
        for _ in range(count or 1):
            for y in range(bottom, top, -1):
                self.buffer[y] = self.buffer[y - 1]
            self.buffer.pop(top, None)

    def repeat(self, count=None):
        self.draw(self.last * (count or 1))


class _Stream(pyte.ByteStream):
    csi = dict(pyte.ByteStream.csi, S="scroll_up", T="scroll_down", b="repeat")
    events = pyte.ByteStream.events | {"scroll_up", "scroll_down", "repeat"}
