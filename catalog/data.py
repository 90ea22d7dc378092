"""The real metadata of the game: sets and products (spec's release table) and the clubs.

This is the part of the catalog that is not sample data: it comes from the source's release
table (`shared/spec/eleven-stars-rules.md`, "Sets") and from the J.League of 2001–2002.
"""

from dataclasses import dataclass
from datetime import date


@dataclass(frozen=True)
class SetInfo:
    code: str
    name: str
    name_ja: str
    released: date
    kind: str  # "prebuilt" or "expansion"
    kinds_count: int  # card kinds, or decks for a championship deck
    display_order: int


@dataclass(frozen=True)
class ProductInfo:
    set_code: str
    kind: str  # "prebuilt_starter", "starter", "booster"
    cards_per_product: int
    price_yen: int
    notes: str = ""


@dataclass(frozen=True)
class TeamInfo:
    code: str
    name: str
    name_ja: str
    is_national: bool = False


SETS = (
    SetInfo(
        "CD00",
        "2000 Championship Deck",
        "2000チャンピオンシップデッキ",
        date(2001, 4, 1),
        "prebuilt",
        2,
        1,
    ),
    SetInfo("BS", "Basic Set", "基本セット", date(2001, 6, 1), "expansion", 239, 2),
    SetInfo("2ND", "2001 2nd", "2001 2nd", date(2002, 1, 1), "expansion", 116, 3),
    SetInfo(
        "CD01",
        "2001 Championship Deck",
        "2001チャンピオンシップデッキ",
        date(2002, 3, 1),
        "prebuilt",
        2,
        4,
    ),
    SetInfo("02", "2002", "2002", date(2002, 7, 1), "expansion", 187, 5),
    SetInfo("JP", "2002's JAPAN", "2002's JAPAN", date(2002, 7, 1), "expansion", 93, 6),
)

PRODUCTS = (
    ProductInfo("CD00", "prebuilt_starter", 67, 1500, "Beta version (ベータ版)"),
    ProductInfo("BS", "starter", 67, 1500),
    ProductInfo("BS", "booster", 8, 300),
    ProductInfo("2ND", "booster", 8, 300),
    ProductInfo("CD01", "prebuilt_starter", 73, 1500),
    ProductInfo("02", "starter", 67, 1500),
    ProductInfo("02", "booster", 8, 300),
    ProductInfo("JP", "booster", 8, 350),
)

TEAMS = (
    TeamInfo("kashima", "Kashima Antlers", "鹿島アントラーズ"),
    TeamInfo("iwata", "Júbilo Iwata", "ジュビロ磐田"),
    TeamInfo("shimizu", "Shimizu S-Pulse", "清水エスパルス"),
    TeamInfo("yokohama-fm", "Yokohama F. Marinos", "横浜F・マリノス"),
    TeamInfo("urawa", "Urawa Red Diamonds", "浦和レッドダイヤモンズ"),
    TeamInfo("kashiwa", "Kashiwa Reysol", "柏レイソル"),
    TeamInfo("nagoya", "Nagoya Grampus Eight", "名古屋グランパスエイト"),
    TeamInfo("g-osaka", "Gamba Osaka", "ガンバ大阪"),
    TeamInfo("c-osaka", "Cerezo Osaka", "セレッソ大阪"),
    TeamInfo("hiroshima", "Sanfrecce Hiroshima", "サンフレッチェ広島"),
    TeamInfo("kobe", "Vissel Kobe", "ヴィッセル神戸"),
    TeamInfo("ichihara", "JEF United Ichihara", "ジェフユナイテッド市原"),
    TeamInfo("verdy", "Tokyo Verdy 1969", "東京ヴェルディ1969"),
    TeamInfo("fc-tokyo", "FC Tokyo", "FC東京"),
    TeamInfo("sapporo", "Consadole Sapporo", "コンサドーレ札幌"),
    TeamInfo("fukuoka", "Avispa Fukuoka", "アビスパ福岡"),
    TeamInfo("kyoto", "Kyoto Purple Sanga", "京都パープルサンガ"),
    TeamInfo("sendai", "Vegalta Sendai", "ベガルタ仙台"),
    TeamInfo("japan", "Japan national team", "日本代表", is_national=True),
)

# J1 clubs by season: the 2001 sets use the 2001 league, the 2002 set the 2002 league.
J1_2001 = tuple(t.code for t in TEAMS[:16])
J1_2002 = tuple(code for code in J1_2001 if code not in {"c-osaka", "fukuoka"}) + (
    "kyoto",
    "sendai",
)
