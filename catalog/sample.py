"""The generated SAMPLE card pool: invented cards with the real number of cards per set.

No machine-readable card list of Eleven Stars exists, so the catalog ships this pool so the app
can be used end to end. Every card it makes is `is_sample=True`. Generation is a pure function
of a fixed seed: every machine gets the same pool, card for card.

Shape of the pool (real counts per set from the spec's release table):
- BS 239, 2ND 116, 02 187, JP 93 cards; CD00 and CD01 hold the cards of their two prebuilt
  decks each (CD01's decks come with bench cards: 73-card product = 60 + keeper + 5 field +
  ball + 6 bench).
- Each club has a roster of invented persons; a person recurs across sets (a new card, new
  numbers) the way real players do, and the JAPAN set picks its persons from the club rosters.
"""

import random
from dataclasses import dataclass, field

from catalog.data import J1_2001, J1_2002

SEED = 20010601

SURNAMES = [
    ("Aoki", "青木"),
    ("Arai", "新井"),
    ("Ando", "安藤"),
    ("Endo", "遠藤"),
    ("Fujita", "藤田"),
    ("Fukuda", "福田"),
    ("Goto", "後藤"),
    ("Hara", "原"),
    ("Hayashi", "林"),
    ("Hirano", "平野"),
    ("Honda", "本田"),
    ("Ikeda", "池田"),
    ("Imai", "今井"),
    ("Ishida", "石田"),
    ("Ito", "伊藤"),
    ("Kato", "加藤"),
    ("Kikuchi", "菊池"),
    ("Kimura", "木村"),
    ("Kondo", "近藤"),
    ("Kubo", "久保"),
    ("Maeda", "前田"),
    ("Masuda", "増田"),
    ("Matsuda", "松田"),
    ("Miura", "三浦"),
    ("Mori", "森"),
    ("Murakami", "村上"),
    ("Nagai", "永井"),
    ("Nakamura", "中村"),
    ("Nishida", "西田"),
    ("Noguchi", "野口"),
    ("Ogawa", "小川"),
    ("Okada", "岡田"),
    ("Ono", "小野"),
    ("Saito", "斎藤"),
    ("Sakai", "酒井"),
    ("Sano", "佐野"),
    ("Sato", "佐藤"),
    ("Shimizu", "清水"),
    ("Sugiyama", "杉山"),
    ("Suzuki", "鈴木"),
    ("Takagi", "高木"),
    ("Takahashi", "高橋"),
    ("Tanaka", "田中"),
    ("Taniguchi", "谷口"),
    ("Ueda", "上田"),
    ("Wada", "和田"),
    ("Watanabe", "渡辺"),
    ("Yamada", "山田"),
    ("Yamamoto", "山本"),
    ("Yoshida", "吉田"),
    ("Yoshimura", "吉村"),
    ("Uchida", "内田"),
]
GIVEN_NAMES = [
    ("Akira", "明"),
    ("Atsushi", "敦"),
    ("Daisuke", "大輔"),
    ("Daiki", "大樹"),
    ("Go", "剛"),
    ("Hajime", "一"),
    ("Haruki", "春樹"),
    ("Hideki", "英樹"),
    ("Hiroshi", "博"),
    ("Isamu", "勇"),
    ("Jun", "純"),
    ("Kazuki", "一輝"),
    ("Kenji", "健二"),
    ("Kenta", "健太"),
    ("Koji", "浩二"),
    ("Makoto", "誠"),
    ("Masaki", "正樹"),
    ("Minoru", "実"),
    ("Naoki", "直樹"),
    ("Noboru", "昇"),
    ("Osamu", "修"),
    ("Ryo", "亮"),
    ("Ryota", "亮太"),
    ("Satoshi", "聡"),
    ("Shingo", "慎吾"),
    ("Shinji", "真司"),
    ("Shota", "翔太"),
    ("Shun", "駿"),
    ("Susumu", "進"),
    ("Takashi", "隆"),
    ("Takeshi", "武"),
    ("Takumi", "巧"),
    ("Taro", "太郎"),
    ("Tetsuya", "哲也"),
    ("Tomoya", "智也"),
    ("Toru", "徹"),
    ("Tsuyoshi", "剛士"),
    ("Yasuhiro", "康弘"),
    ("Yoichi", "洋一"),
    ("Yosuke", "洋介"),
    ("Yuji", "裕二"),
    ("Yuki", "祐樹"),
    ("Yusuke", "祐介"),
    ("Yuta", "雄太"),
    ("Kohei", "康平"),
    ("Masato", "正人"),
]

# Readings (kana) of the Japanese names above and of the event names, for `Card.name_kana`:
# search finds a card by its reading in hiragana, katakana or half-width katakana.
READINGS = {
    "青木": "あおき",
    "新井": "あらい",
    "安藤": "あんどう",
    "遠藤": "えんどう",
    "藤田": "ふじた",
    "福田": "ふくだ",
    "後藤": "ごとう",
    "原": "はら",
    "林": "はやし",
    "平野": "ひらの",
    "本田": "ほんだ",
    "池田": "いけだ",
    "今井": "いまい",
    "石田": "いしだ",
    "伊藤": "いとう",
    "加藤": "かとう",
    "菊池": "きくち",
    "木村": "きむら",
    "近藤": "こんどう",
    "久保": "くぼ",
    "前田": "まえだ",
    "増田": "ますだ",
    "松田": "まつだ",
    "三浦": "みうら",
    "森": "もり",
    "村上": "むらかみ",
    "永井": "ながい",
    "中村": "なかむら",
    "西田": "にしだ",
    "野口": "のぐち",
    "小川": "おがわ",
    "岡田": "おかだ",
    "小野": "おの",
    "斎藤": "さいとう",
    "酒井": "さかい",
    "佐野": "さの",
    "佐藤": "さとう",
    "清水": "しみず",
    "杉山": "すぎやま",
    "鈴木": "すずき",
    "高木": "たかぎ",
    "高橋": "たかはし",
    "田中": "たなか",
    "谷口": "たにぐち",
    "上田": "うえだ",
    "和田": "わだ",
    "渡辺": "わたなべ",
    "山田": "やまだ",
    "山本": "やまもと",
    "吉田": "よしだ",
    "吉村": "よしむら",
    "内田": "うちだ",
    "明": "あきら",
    "敦": "あつし",
    "大輔": "だいすけ",
    "大樹": "だいき",
    "剛": "ごう",
    "一": "はじめ",
    "春樹": "はるき",
    "英樹": "ひでき",
    "博": "ひろし",
    "勇": "いさむ",
    "純": "じゅん",
    "一輝": "かずき",
    "健二": "けんじ",
    "健太": "けんた",
    "浩二": "こうじ",
    "誠": "まこと",
    "正樹": "まさき",
    "実": "みのる",
    "直樹": "なおき",
    "昇": "のぼる",
    "修": "おさむ",
    "亮": "りょう",
    "亮太": "りょうた",
    "聡": "さとし",
    "慎吾": "しんご",
    "真司": "しんじ",
    "翔太": "しょうた",
    "駿": "しゅん",
    "進": "すすむ",
    "隆": "たかし",
    "武": "たけし",
    "巧": "たくみ",
    "太郎": "たろう",
    "哲也": "てつや",
    "智也": "ともや",
    "徹": "とおる",
    "剛士": "つよし",
    "康弘": "やすひろ",
    "洋一": "よういち",
    "洋介": "ようすけ",
    "裕二": "ゆうじ",
    "祐樹": "ゆうき",
    "祐介": "ゆうすけ",
    "雄太": "ゆうた",
    "康平": "こうへい",
    "正人": "まさと",
    "スルーパス": "するーぱす",
    "ワンツー": "わんつー",
    "ドリブル": "どりぶる",
    "パワーシュート": "ぱわーしゅーと",
    "ボレー": "ぼれー",
    "オーバーヘッドキック": "おーばーへっどきっく",
    "スライディングタックル": "すらいでぃんぐたっくる",
    "カバーリング": "かばーりんぐ",
    "オフサイドトラップ": "おふさいどとらっぷ",
    "マンマーク": "まんまーく",
    "プレッシング": "ぷれっしんぐ",
    "フェイント": "ふぇいんと",
    "選手交代": "せんしゅこうたい",
    "サポーターの声援": "さぽーたーのせいえん",
    "カウンターアタック": "かうんたーあたっく",
    "セットプレー": "せっとぷれー",
    "ゾーンディフェンス": "ぞーんでぃふぇんす",
    "ロングフィード": "ろんぐふぃーど",
}


def reading(name_ja: str) -> str:
    """Return the kana reading of a sample name (each space-separated part read alone)."""
    return " ".join(READINGS[part] for part in name_ja.split())


# (English name, Japanese name, effect template); {n} is drawn per card.
EVENT_TEMPLATES = [
    ("Through Pass", "スルーパス", "keep:+{n}"),
    ("One-Two", "ワンツー", "keep:+{n}"),
    ("Dribble", "ドリブル", "keep:+{n};draw:1"),
    ("Power Shot", "パワーシュート", "shoot:+{n}"),
    ("Volley", "ボレー", "shoot:+{n}"),
    ("Overhead Kick", "オーバーヘッドキック", "shoot:+{n};keep:+1"),
    ("Sliding Tackle", "スライディングタックル", "defense:+{n}"),
    ("Cover", "カバーリング", "defense:+{n};keep:+1"),
    ("Offside Trap", "オフサイドトラップ", "opp_shoot:-{n}"),
    ("Man Marking", "マンマーク", "opp_keep:-{n}"),
    ("Pressing", "プレッシング", "opp_keep:-{n};defense:+1"),
    ("Feint", "フェイント", "opp_defense:-{n}"),
    ("Substitution", "選手交代", "draw:{d}"),
    ("Supporters' Cheer", "サポーターの声援", "draw:1;keep:+{n}"),
    ("Counter Attack", "カウンターアタック", "shoot:+{n};opp_keep:-1"),
    ("Set Piece", "セットプレー", "shoot:+{n};defense:+1"),
    ("Zone Defense", "ゾーンディフェンス", "defense:+{n};opp_shoot:-1"),
    ("Long Feed", "ロングフィード", "keep:+{n};opp_defense:-1"),
]

POSITION_STATS = {  # (shoot, keep, defense) ranges
    "FW": ((4, 9), (1, 5), (0, 3)),
    "MF": ((2, 6), (3, 8), (1, 5)),
    "DF": ((0, 3), (2, 5), (4, 9)),
    "GK": ((0, 0), (1, 3), (3, 8)),
}


@dataclass(frozen=True)
class Person:
    key: str
    name: str
    name_ja: str
    position: str
    team: str


@dataclass
class SampleCard:
    id: str
    set_code: str
    number: int
    name: str
    name_ja: str
    kind: str
    position: str
    person: str
    team: str | None
    shoot: int
    keep: int
    defense: int
    effect: str
    rarity: str

    def as_row(self) -> dict:
        row = dict(self.__dict__)
        row["name_kana"] = reading(self.name_ja)
        row["is_sample"] = True
        return row


@dataclass
class SampleDeck:
    """A prebuilt or starter deck made of one set's sample cards."""

    set_code: str
    product_kind: str
    name: str
    name_ja: str
    goalkeeper: str
    deck: list[tuple[str, int]]
    bench: list[tuple[str, int]] = field(default_factory=list)
    pk_goalkeeper: str | None = None


@dataclass
class SamplePool:
    cards: list[SampleCard]
    decks: list[SampleDeck]


class _Builder:
    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.cards: list[SampleCard] = []
        self.decks: list[SampleDeck] = []
        self.numbers: dict[str, int] = {}
        self.rosters = self._make_rosters()

    def _make_rosters(self) -> dict[str, list[Person]]:
        names = [(s, g) for s in SURNAMES for g in GIVEN_NAMES]
        self.rng.shuffle(names)
        rosters: dict[str, list[Person]] = {}
        clubs = list(dict.fromkeys(J1_2001 + J1_2002))
        it = iter(names)
        for club in clubs:
            people = []
            for position, count in (("GK", 3), ("FW", 7), ("MF", 8), ("DF", 7)):
                for _ in range(count):
                    (sur, sur_ja), (given, given_ja) = next(it)
                    people.append(
                        Person(
                            key=f"{given} {sur}",
                            name=f"{given} {sur}",
                            name_ja=f"{sur_ja} {given_ja}",
                            position=position,
                            team=club,
                        )
                    )
            rosters[club] = people
        return rosters

    def _next_id(self, set_code: str) -> tuple[str, int]:
        number = self.numbers.get(set_code, 0) + 1
        self.numbers[set_code] = number
        return f"{set_code}-{number:03d}", number

    def _rarity(self, power: int) -> str:
        roll = self.rng.random()
        if power >= 16 and roll < 0.5:
            return "SR"
        if power >= 13 or roll < 0.1:
            return "R"
        if power >= 10 or roll < 0.35:
            return "U"
        return "C"

    def player(self, set_code: str, person: Person, team: str | None = None) -> str:
        card_id, number = self._next_id(set_code)
        (s_lo, s_hi), (k_lo, k_hi), (d_lo, d_hi) = POSITION_STATS[person.position]
        shoot = self.rng.randint(s_lo, s_hi)
        keep = self.rng.randint(k_lo, k_hi)
        defense = self.rng.randint(d_lo, d_hi)
        self.cards.append(
            SampleCard(
                id=card_id,
                set_code=set_code,
                number=number,
                name=person.name,
                name_ja=person.name_ja,
                kind="goalkeeper" if person.position == "GK" else "player",
                position=person.position,
                person=person.key,
                team=team or person.team,
                shoot=shoot,
                keep=keep,
                defense=defense,
                effect="",
                rarity=self._rarity(shoot + keep + defense),
            )
        )
        return card_id

    def event(self, set_code: str) -> str:
        card_id, number = self._next_id(set_code)
        name, name_ja, template = self.rng.choice(EVENT_TEMPLATES)
        n = self.rng.randint(1, 4)
        effect = template.format(n=n, d=self.rng.randint(1, 2))
        self.cards.append(
            SampleCard(
                id=card_id,
                set_code=set_code,
                number=number,
                name=name,
                name_ja=name_ja,
                kind="event",
                position="",
                person="",
                team=None,
                shoot=0,
                keep=0,
                defense=0,
                effect=effect,
                rarity="U" if n >= 3 else "C",
            )
        )
        return card_id

    def by_position(self, club: str, position: str) -> list[Person]:
        return [p for p in self.rosters[club] if p.position == position]

    def pick(self, club: str, position: str, count: int) -> list[Person]:
        return self.rng.sample(self.by_position(club, position), count)

    def championship_deck(self, set_code: str, club: str, name: str, name_ja: str, bench: bool):
        """Make one prebuilt deck's cards: a keeper, 10 persons, 6 events (+ bench cards)."""
        goalkeeper = self.player(set_code, self.by_position(club, "GK")[0])
        persons = self.pick(club, "FW", 3) + self.pick(club, "MF", 4) + self.pick(club, "DF", 3)
        players = [self.player(set_code, p) for p in persons]
        events = [self.event(set_code) for _ in range(6)]
        deck = [(card, 5) for card in players] + list(zip(events, [2, 2, 2, 2, 1, 1], strict=True))
        sample_deck = SampleDeck(set_code, "prebuilt_starter", name, name_ja, goalkeeper, deck)
        if bench:
            pk_goalkeeper = self.player(set_code, self.by_position(club, "GK")[1])
            # Bench players are other cards of the deck's persons, so a halftime swap keeps
            # the deck at 10 persons (R-MATCH-5, R-DECK-3).
            bench_players = [self.player(set_code, p) for p in self.rng.sample(persons, 3)]
            bench_events = [self.event(set_code) for _ in range(2)]
            sample_deck.pk_goalkeeper = pk_goalkeeper
            sample_deck.bench = [(c, 1) for c in [pk_goalkeeper, *bench_players, *bench_events]]
        self.decks.append(sample_deck)

    def expansion(
        self, set_code: str, clubs, per_club, events: int, keeper_every: int = 1, adjust=None
    ):
        """Make an expansion: per club, a keeper (every `keeper_every` club) and players."""
        made: dict[str, list[str]] = {}
        for index, club in enumerate(clubs):
            ids = []
            with_keeper = index % keeper_every == 0
            if with_keeper:
                keepers = self.by_position(club, "GK")
                ids.append(self.player(set_code, keepers[index % len(keepers)]))
            count = per_club + (adjust or {}).get(club, 0) - (1 if with_keeper else 0)
            fw = count // 3
            df = count // 3
            mf = count - fw - df
            for position, n in (("FW", fw), ("MF", mf), ("DF", df)):
                ids += [self.player(set_code, p) for p in self.pick(club, position, n)]
            made[club] = ids
        made["events"] = [self.event(set_code) for _ in range(events)]
        return made

    def starter_deck(self, set_code: str, club: str, made: dict, name: str, name_ja: str):
        """Make a 60-card starter from an expansion's cards of one club (10 persons)."""
        card_by_id = {c.id: c for c in self.cards}
        club_cards = [card_by_id[i] for i in made[club]]
        goalkeeper = next(c.id for c in club_cards if c.kind == "goalkeeper")
        players = [c.id for c in club_cards if c.kind == "player"][:10]
        events = self.rng.sample(made["events"], 5)
        deck = [(card, 5) for card in players] + list(zip(events, [2, 2, 2, 2, 2], strict=True))
        self.decks.append(SampleDeck(set_code, "starter", name, name_ja, goalkeeper, deck))

    def japan(self, set_code: str, keepers: int, players: int, events: int):
        """Make the national-team set from persons of the club rosters."""
        pool = [p for club in J1_2002 for p in self.rosters[club]]
        gks = self.rng.sample([p for p in pool if p.position == "GK"], keepers)
        field_players = self.rng.sample([p for p in pool if p.position != "GK"], players)
        field_players.sort(key=lambda p: "FMD".index(p.position[0]))
        for person in gks + field_players:
            self.player(set_code, person, team="japan")
        for _ in range(events):
            self.event(set_code)


def generate(seed: int = SEED) -> SamplePool:
    """Return the whole sample pool and its prebuilt/starter decks, the same on every run."""
    b = _Builder(seed)
    b.championship_deck(
        "CD00", "kashima", "Kashima Antlers 2000", "鹿島アントラーズ2000", bench=False
    )
    b.championship_deck(
        "CD00", "yokohama-fm", "Yokohama F. Marinos 2000", "横浜F・マリノス2000", bench=False
    )
    basic = b.expansion("BS", J1_2001, per_club=13, events=31)
    b.starter_deck("BS", "urawa", basic, "Basic Set Starter", "基本セット スターター")
    b.expansion("2ND", J1_2001, per_club=6, events=20, keeper_every=2)
    b.championship_deck("CD01", "kashima", "Kashima Antlers 2001", "鹿島アントラーズ2001", True)
    b.championship_deck("CD01", "iwata", "Júbilo Iwata 2001", "ジュビロ磐田2001", True)
    # The starter's club gets one card more (10 persons for its deck), the last club one less.
    y2002 = b.expansion("02", J1_2002, per_club=10, events=27, adjust={"iwata": 1, J1_2002[-1]: -1})
    b.starter_deck("02", "iwata", y2002, "2002 Starter", "2002 スターター")
    b.japan("JP", keepers=5, players=70, events=18)
    return SamplePool(cards=b.cards, decks=b.decks)
