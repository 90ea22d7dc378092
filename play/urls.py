from django.urls import path

from play import td_play_views, views, views_lab, views_replay, views_solo

app_name = "play"
urlpatterns = [
    path("simulations/", views.batch_list, name="batch-list"),
    path("simulations/new/", views.batch_new, name="batch-new"),
    path("simulations/<int:batch_id>/", views.batch_detail, name="batch-detail"),
    path("simulations/<int:batch_id>/progress/", views.batch_progress, name="batch-progress"),
    path("simulations/<int:batch_id>/cancel/", views.batch_cancel, name="batch-cancel"),
    path("simulations/<int:batch_id>/results.json", views.batch_results_json, name="batch-json"),
    path("simulations/shared/<str:token>/", views.batch_shared, name="batch-shared"),
    path(
        "simulations/shared/<str:token>/progress/",
        views.batch_progress,
        name="batch-shared-progress",
    ),
    path("logs/<str:token>.json", views.log_json, name="log-json"),
    # Solo play and replays (issue #6)
    path("play/", views_solo.solo_new, name="solo-new"),
    path("play/<int:game_id>/", views_solo.solo_game, name="solo-game"),
    path("play/<int:game_id>/events/", views_solo.solo_events, name="solo-events"),
    path("play/<int:game_id>/act/", views_solo.solo_act_view, name="solo-act"),
    path("play/<int:game_id>/bot-step/", views_solo.solo_bot_step_view, name="solo-bot-step"),
    path("play/<int:game_id>/undo/", views_solo.solo_undo_view, name="solo-undo"),
    path("play/<int:game_id>/restart/", views_solo.solo_restart_view, name="solo-restart"),
    path("play/<int:game_id>/autoplay/", views_solo.solo_autoplay_view, name="solo-autoplay"),
    path("lab/touchdown/", views_lab.lab, name="lab"),
    path("lab/touchdown/play/", td_play_views.td_play, name="td-play"),
    path("lab/touchdown/play/act/", td_play_views.td_play_act, name="td-play-act"),
    path("lab/touchdown/play/quit/", td_play_views.td_play_quit, name="td-play-quit"),
    path("lab/touchdown/play/replay/", td_play_views.td_play_replay, name="td-play-replay"),
    path("replays/upload/", views_replay.replay_upload, name="replay-upload"),
    path("replays/<str:token>/", views_replay.replay, name="replay"),
]
