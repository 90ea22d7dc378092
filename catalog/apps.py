from django.apps import AppConfig


class CatalogConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "catalog"

    def ready(self):
        from catalog.cache import connect_signals
        from catalog.contribution_selectors import card_contrib_section
        from catalog.extensions import card_page_sections

        connect_signals()
        if card_contrib_section not in card_page_sections:
            card_page_sections.insert(0, card_contrib_section)
