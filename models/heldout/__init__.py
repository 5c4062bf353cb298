"""Held-out art-style families: decks drawn apart from the training renderer, for measuring only.

Each family (:mod:`models.heldout.woodcut`, :mod:`models.heldout.watercolour`) draws a whole
deck of the 16 vision labels from a deck seed, with its own layout, lettering, picture and
way of being photographed (:mod:`models.heldout.camera`). None of this code shares drawing
code with :mod:`models.render` or :mod:`models.camera`, and no training, calibration or
tuning decision reads it: :mod:`models.heldout.measure` only measures.
"""
