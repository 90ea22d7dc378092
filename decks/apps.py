from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DecksConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "decks"
    verbose_name = _("Decks")

    def ready(self):
        from catalog.extensions import card_page_sections, user_search_term_register
        from catalog.services import catalog_loaded
        from decks import signals
        from decks.extensions import deck_page_sections

        catalog_loaded.connect(signals.make_sample_decks, dispatch_uid="decks.sample_decks")
        if signals.public_decks_section not in card_page_sections:
            card_page_sections.append(signals.public_decks_section)
        if signals.collection_section not in card_page_sections:
            card_page_sections.append(signals.collection_section)
        user_search_term_register(signals.OWNED_TERM)
        if signals.deck_collection_section not in deck_page_sections:
            deck_page_sections.append(signals.deck_collection_section)
