from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DecksConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "decks"
    verbose_name = _("Decks")

    def ready(self):
        from catalog.extensions import (
            card_in_use_checks,
            card_page_sections,
            cards_changed,
            user_search_term_register,
        )
        from catalog.services import catalog_loaded
        from decks import catalog_changes, signals
        from decks.extensions import deck_page_sections

        catalog_loaded.connect(signals.make_sample_decks, dispatch_uid="decks.sample_decks")
        cards_changed.connect(catalog_changes.on_cards_changed, dispatch_uid="decks.revalidate")
        if catalog_changes.cards_in_decks not in card_in_use_checks:
            card_in_use_checks.append(catalog_changes.cards_in_decks)
        if signals.public_decks_section not in card_page_sections:
            card_page_sections.append(signals.public_decks_section)
        if signals.collection_section not in card_page_sections:
            card_page_sections.append(signals.collection_section)
        user_search_term_register(signals.OWNED_TERM)
        if signals.deck_collection_section not in deck_page_sections:
            deck_page_sections.append(signals.deck_collection_section)
