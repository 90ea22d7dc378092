from django.urls import path

from play.lab import views as lab_views
from play.lab.games import views as td_play_views
from play.replays import views as replay_views
from play.simulations import views as batch_views
from play.solo import views as solo_views

app_name = "play"
urlpatterns = [
    path("simulations/", batch_views.batch_list, name="batch-list"),
    path("simulations/new/", batch_views.batch_new, name="batch-new"),
    path("simulations/<int:batch_id>/", batch_views.batch_detail, name="batch-detail"),
    path("simulations/<int:batch_id>/progress/", batch_views.batch_progress, name="batch-progress"),
    path("simulations/<int:batch_id>/cancel/", batch_views.batch_cancel, name="batch-cancel"),
    path(
        "simulations/<int:batch_id>/cards.csv", batch_views.batch_cards_csv, name="batch-cards-csv"
    ),
    path(
        "simulations/<int:batch_id>/swaps.csv", batch_views.batch_swaps_csv, name="batch-swaps-csv"
    ),
    path(
        "simulations/<int:batch_id>/matrix.csv",
        batch_views.batch_matrix_csv,
        name="batch-matrix-csv",
    ),
    path(
        "simulations/<int:batch_id>/halftime/",
        batch_views.batch_halftime_from_report,
        name="batch-halftime-from-report",
    ),
    path(
        "simulations/<int:batch_id>/halftime.csv",
        batch_views.batch_halftime_csv,
        name="batch-halftime-csv",
    ),
    path(
        "simulations/<int:batch_id>/swaps/<int:number>/apply/",
        batch_views.batch_swap_apply,
        name="batch-swap-apply",
    ),
    path(
        "simulations/<int:batch_id>/results.json",
        batch_views.batch_results_json,
        name="batch-json",
    ),
    path(
        "simulations/<int:batch_id>/share/revoke/",
        batch_views.batch_share_revoke,
        name="batch-share-revoke",
    ),
    path("simulations/shared/<str:token>/", batch_views.batch_shared, name="batch-shared"),
    path(
        "simulations/shared/<str:token>/progress/",
        batch_views.batch_progress,
        name="batch-shared-progress",
    ),
    path("logs/<str:token>.json", replay_views.log_json, name="log-json"),
    # Solo play and replays (issue #6)
    path("play/", solo_views.solo_new, name="solo-new"),
    path("play/<int:game_id>/", solo_views.solo_game, name="solo-game"),
    path("play/<int:game_id>/events/", solo_views.solo_events, name="solo-events"),
    path("play/<int:game_id>/act/", solo_views.solo_act_view, name="solo-act"),
    path("play/<int:game_id>/bot-step/", solo_views.solo_bot_step_view, name="solo-bot-step"),
    path("play/<int:game_id>/undo/", solo_views.solo_undo_view, name="solo-undo"),
    path("play/<int:game_id>/restart/", solo_views.solo_restart_view, name="solo-restart"),
    path("play/<int:game_id>/autoplay/", solo_views.solo_autoplay_view, name="solo-autoplay"),
    path("play/<int:game_id>/again/", solo_views.solo_rematch_view, name="solo-rematch"),
    path("lab/touchdown/", lab_views.lab, name="lab"),
    path(
        "simulations/<int:batch_id>/report.<str:fmt>",
        lab_views.lab_report,
        name="lab-report",
    ),
    path(
        "simulations/shared/<str:token>/report.<str:fmt>",
        lab_views.lab_report_shared,
        name="lab-report-shared",
    ),
    # Touchdown Heroes by hand and its replay (issue #14)
    path("lab/touchdown/play/", td_play_views.td_play, name="td-play"),
    path("lab/touchdown/play/act/", td_play_views.td_play_act, name="td-play-act"),
    path("lab/touchdown/play/quit/", td_play_views.td_play_quit, name="td-play-quit"),
    path("lab/touchdown/play/replay/", td_play_views.td_play_replay, name="td-play-replay"),
    path("lab/touchdown/replays/<str:token>/", td_play_views.td_log_replay, name="td-log-replay"),
    path("replays/upload/", replay_views.replay_upload, name="replay-upload"),
    path("replays/upload/<str:token>/steps.json", replay_views.upload_steps, name="upload-steps"),
    path("replays/<str:token>/", replay_views.replay, name="replay"),
    path("replays/<str:token>/steps.json", replay_views.replay_steps, name="replay-steps"),
]
