from django.contrib import admin

from catalog.models import Card, CardSet, Product, Team


class ProductInline(admin.TabularInline):
    model = Product
    extra = 0


@admin.register(CardSet)
class CardSetAdmin(admin.ModelAdmin):
    list_display = ["code", "name", "name_ja", "released", "kind", "kinds_count", "display_order"]
    list_filter = ["kind"]
    search_fields = ["code", "name", "name_ja"]
    inlines = [ProductInline]


@admin.register(Product)
class ProductAdmin(admin.ModelAdmin):
    list_display = ["card_set", "kind", "cards_per_product", "price_yen", "notes"]
    list_filter = ["kind", "card_set"]
    search_fields = ["card_set__code", "card_set__name", "notes"]


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin):
    list_display = ["code", "name", "name_ja", "is_national"]
    list_filter = ["is_national"]
    search_fields = ["code", "name", "name_ja"]


@admin.register(Card)
class CardAdmin(admin.ModelAdmin):
    list_display = [
        "id",
        "name",
        "name_ja",
        "kind",
        "position",
        "team",
        "shoot",
        "keep",
        "defense",
        "is_sample",
    ]
    list_filter = ["card_set", "kind", "position", "is_sample", "rarity", "team"]
    search_fields = ["id", "name", "name_ja", "person", "effect"]
    list_select_related = ["team"]
    ordering = ["card_set__display_order", "number"]
