"""Reading scans and photos of cards (issue #25): plain Python, no Django models.

straighten (load a photo safely, find card outlines, perspective), layout (a set's regions),
ocr (Tesseract per region, with confidence), phash (art-area matching, top 3, abstention),
pipeline (end to end, binder pages), tools (what is missing, in one line), synthetic (the
photographed test set the tests and bench/reading.py make).
"""
