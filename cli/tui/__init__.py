"""The full-screen replay stepper (Textual): ``model`` is what is shown, ``app`` how it is drawn."""
