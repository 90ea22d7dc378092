"""DRF's browsable API (its HTML pages), for development only, under the site's CSP.

Its templates write a `<style>` element (code highlighting), which here carries the request's
nonce (templates/rest_framework/csp_api.html), and place elements with `style` attributes (a
dropdown and a button floated right, nested form fields), which no nonce can allow: its pages
alone allow style attributes (`style-src-attr 'unsafe-inline'`). Scripts keep the site's policy
(its own static files and the nonce), and style elements too. With DEBUG off the browsable API
is off (API_BROWSABLE): the API answers JSON to browsers as to any client, and no page relaxes
the policy.
"""

from rest_framework.renderers import BrowsableAPIRenderer


class CSPBrowsableAPIRenderer(BrowsableAPIRenderer):
    """The browsable API, whose pages allow the style attributes its templates use."""

    template = "rest_framework/csp_api.html"

    def get_context(self, data, accepted_media_type, renderer_context):
        context = super().get_context(data, accepted_media_type, renderer_context)
        context["csp_code_style"], context["code_style"] = context.get("code_style"), None
        return context

    def render(self, data, accepted_media_type=None, renderer_context=None):
        response = (renderer_context or {}).get("response")
        if response is not None:
            response._csp_update = {"style-src-attr": ["'unsafe-inline'"]}
        return super().render(data, accepted_media_type, renderer_context)
