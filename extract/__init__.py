"""Whole-book knowledge extraction: offline (lexicon + cue words) or LLM, resolved and merged."""
