"""Turning shipped weights into what serving loads, and training what this project ships:
encoder export (optimum, torch), gate training (scikit-learn), app-matcher fitting, the LoRA
adapter's data and training. Serving never imports this package; its heavy dependencies are
the `[export]` and `[train]` extras.
"""
