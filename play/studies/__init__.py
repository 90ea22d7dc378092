"""Touchdown Heroes studies: what the lab measures, apart from its pages.

`variants` (one rule variant: its options, its games, its figures), `plans` (the strategy table
and the sweeps: their cells, seeds and summaries), `presenters` (their results as tables for a
page) and `reports` (the CSV and JSON downloads). The touchdown batch kind plays them on the
workers; the lab's pages (play/lab/) start them and show them.
"""
