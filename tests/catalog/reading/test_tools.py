"""Where the reading tools are missing, one line says which and how to install it (#25, 4.)."""

import subprocess

import pytest

from catalog.reading import tools


@pytest.fixture(autouse=True)
def fresh_cache():
    tools._tesseract_langs.cache_clear()
    yield
    tools._tesseract_langs.cache_clear()


def test_no_tesseract_names_the_apt_line(monkeypatch):
    monkeypatch.setattr(tools.shutil, "which", lambda name: None)
    monkeypatch.setattr(tools, "_has_module", lambda name: True)
    message = tools.missing_message()
    assert message == (
        "Scan reading is off: Tesseract is not installed "
        "(apt-get install tesseract-ocr tesseract-ocr-jpn); fill the grid by hand."
    )
    assert "\n" not in message and not tools.available()


def test_tesseract_without_japanese_data_names_the_package(monkeypatch):
    monkeypatch.setattr(tools.shutil, "which", lambda name: "/usr/bin/tesseract")
    monkeypatch.setattr(tools, "_has_module", lambda name: True)
    listing = (
        'List of available languages in "/usr/share/tesseract-ocr/5/tessdata/" (2):\neng\nosd\n'
    )
    monkeypatch.setattr(
        tools.subprocess,
        "run",
        lambda *a, **k: subprocess.CompletedProcess(a, 0, stdout=listing, stderr=""),
    )
    assert "apt-get install tesseract-ocr-jpn" in tools.missing_message()


def test_a_missing_python_package_is_named(monkeypatch):
    monkeypatch.setattr(tools, "_has_module", lambda name: name != "cv2")
    message = tools.missing_message()
    assert "cv2" in message and "make setup" in message


def test_all_there_says_nothing(monkeypatch):
    monkeypatch.setattr(tools.shutil, "which", lambda name: "/usr/bin/tesseract")
    monkeypatch.setattr(tools, "_has_module", lambda name: True)
    listing = "List of available languages (3):\neng\njpn\nosd\n"
    monkeypatch.setattr(
        tools.subprocess,
        "run",
        lambda *a, **k: subprocess.CompletedProcess(a, 0, stdout=listing, stderr=""),
    )
    assert tools.missing_message() is None and tools.available()
