"""Card recognition at run time (onnxruntime and OpenCV only, no torch).

Pipeline: :class:`CardLocator` (photo -> card corners -> upright crop, via
:mod:`companion.vision.rectify`) -> :class:`CardClassifier` (batches of crops ->
:class:`Prediction`; an unsure card gets a second look at its
:class:`CardViews`), against the shipped labels or a :class:`DeckProfile` enrolled
from a group's own photos. :class:`CardReader` chains both for single-card photos.
"""

from companion.vision.classifier import UNKNOWN, CardClassifier, Gallery, Prediction
from companion.vision.errors import VisionError
from companion.vision.locate import CardLocator
from companion.vision.profile import DeckProfile, enroll
from companion.vision.reader import CardReader
from companion.vision.views import CardViews

__all__ = ["UNKNOWN", "CardClassifier", "CardLocator", "CardReader", "CardViews", "DeckProfile", "Gallery",
           "Prediction", "VisionError", "enroll"]
