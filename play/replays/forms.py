"""The upload form of the replay viewer."""

from django import forms
from django.utils.translation import gettext_lazy as _

MAX_UPLOAD_BYTES = 5 * 1024 * 1024


class LogUploadForm(forms.Form):
    file = forms.FileField(
        label=_("Match log (JSON)"),
        help_text=_("A match log file as this site or the engine writes it (at most 5 MB)."),
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_UPLOAD_BYTES:
            raise forms.ValidationError(_("The file is larger than 5 MB."))
        return upload
