"""tools.slate_picture_example: the README's slate picture is drawn from a
game record with the bot's own renderer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tools.slate_picture_example import OUT, RECORD, main

PNG = b"\x89PNG\r\n\x1a\n"


def test_it_draws_the_slates_after_the_last_round(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "slates.png"
    assert main([str(RECORD), "--out", str(out)]) == 0
    assert out.read_bytes().startswith(PNG)
    text = capsys.readouterr().out
    assert text.startswith("Slates after round 2 (out at 15)")
    assert "Anna: 8 of 15 marks (+2 this round)" in text


def test_the_committed_picture_is_a_png_of_the_same_size() -> None:
    committed = OUT.read_bytes()
    assert committed.startswith(PNG)
    width, height = int.from_bytes(committed[16:20], "big"), int.from_bytes(committed[20:24], "big")
    assert (width, height) == (800, 120 + 90 * 4)


def test_a_record_without_a_finished_round_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = json.loads(RECORD.read_text(encoding="utf-8"))
    record["events"] = record["events"][:3]
    path = tmp_path / "early.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert main([str(path), "--out", str(tmp_path / "x.png")]) == 2
    assert "no finished round" in capsys.readouterr().err
    assert not (tmp_path / "x.png").exists()
