from django.apps import AppConfig


class PlayConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "play"
    verbose_name = "Play"

    def ready(self):
        from decks.extensions import deck_page_sections
        from play.sections import deck_play_section

        if deck_play_section not in deck_page_sections:
            deck_page_sections.append(deck_play_section)
