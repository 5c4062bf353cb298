"""Card recognition models: synthetic renderer, training, evaluation and the shipped ONNX files.

Rendering, training and evaluation need the ``train`` extra (torch, onnx); the
runtime in :mod:`companion.vision` only reads the ONNX files and the manifest here.
"""
