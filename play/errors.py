"""The one shape of "these fields are wrong" that play's services raise."""


class FieldErrors(ValueError):
    """Bad input: `errors` maps each field to its messages, shown beside the fields at once."""

    def __init__(self, errors: dict[str, list[str]]):
        self.errors = errors
        super().__init__("; ".join(f"{k}: {' '.join(v)}" for k, v in errors.items()))
