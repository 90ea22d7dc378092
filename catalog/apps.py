from django.apps import AppConfig


class CatalogConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "catalog"

    def ready(self):
        from catalog.cache import connect_signals
        from catalog.contributions.selectors import card_contrib_section
        from catalog.extensions import card_page_sections

        connect_signals()
        from catalog.scans import connect_signals as connect_scan_signals

        connect_scan_signals()
        from django.db.models.signals import post_migrate

        from catalog.contributions.services import editor_groups_ensure

        post_migrate.connect(editor_groups_ensure, sender=self, dispatch_uid="catalog.editors")
        if card_contrib_section not in card_page_sections:
            card_page_sections.insert(0, card_contrib_section)
        from catalog.contributions.selectors import printing_proposals_section

        if printing_proposals_section not in card_page_sections:
            card_page_sections.insert(1, printing_proposals_section)
