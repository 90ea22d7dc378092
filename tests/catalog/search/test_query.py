"""The search language: every field and operator, negation, or, parentheses, Japanese input,
ordering, error messages with columns, and fuzzing (no input raises anything but a syntax error).

The session database already holds the loaded catalog (tests/conftest.py); these tests add two
sets of their own (ZB, Z2) and look only at their cards.
"""

from datetime import date

import pytest
from django.db import connection
from django.http import QueryDict
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from catalog.data import TEAMS
from catalog.models import Card, CardSet, Team
from catalog.search.query import (
    MAX_DEPTH,
    MAX_QUERY_LENGTH,
    MAX_TERMS,
    ParsedQuery,
    QuerySyntaxError,
    describe,
    parse_query,
    quote_value,
)
from catalog.search.selectors import card_filter_form_to_query, card_search

pytestmark = pytest.mark.django_db

OUR_SETS = ["ZB", "Z2"]


def team(code: str) -> Team:
    info = next(t for t in TEAMS if t.code == code)
    return Team.objects.get_or_create(
        code=code, defaults={"name": info.name, "name_ja": info.name_ja}
    )[0]


def player(card_set, number, name, name_ja, position, stats, rarity, club, person=None, **extra):
    shoot, keep, defense = stats
    return Card.objects.create(
        id=Card.make_id(card_set.code, number),
        card_set=card_set,
        number=number,
        name=name,
        name_ja=name_ja,
        kind="goalkeeper" if position == "GK" else "player",
        position=position,
        person=person or name,
        team=club,
        shoot=shoot,
        keep=keep,
        defense=defense,
        rarity=rarity,
        **extra,
    )


def event(card_set, number, name, name_ja, effect, rarity, **extra):
    return Card.objects.create(
        id=Card.make_id(card_set.code, number),
        card_set=card_set,
        number=number,
        name=name,
        name_ja=name_ja,
        kind="event",
        effect=effect,
        rarity=rarity,
        **extra,
    )


@pytest.fixture
def cards(db):
    """Eight cards over two sets; the comments give what the tests rely on."""
    zb = CardSet.objects.create(
        code="ZB",
        name="Test Basic",
        name_ja="テスト基本",
        released=date(2001, 6, 1),
        kind="expansion",
        kinds_count=5,
        display_order=901,
    )
    z2 = CardSet.objects.create(
        code="Z2",
        name="Test 2nd",
        name_ja="テスト2nd",
        released=date(2002, 1, 1),
        kind="expansion",
        kinds_count=3,
        display_order=902,
    )
    kashima, iwata = team("kashima"), team("iwata")
    player(zb, 1, "Kenta Arai", "新井 健太", "FW", (8, 3, 1), "R", kashima)
    player(zb, 2, "Marco Arai", "マルコ・アライ", "MF", (5, 7, 3), "U", iwata)  # katakana
    player(zb, 3, "Hiroshi Mori", "森 博", "GK", (0, 2, 7), "C", kashima)  # 1-char surname
    event(zb, 4, "Power Shot", "パワーシュート", "shoot:+2", "C")
    player(zb, 5, "King Miura", "ＫＡＺＵ 三浦", "FW", (9, 4, 0), "SR", iwata, "K. Miura")
    player(z2, 1, "Taro Suzuki", "鈴木 太郎", "DF", (1, 4, 9), "SR", kashima, is_sample=True)
    event(z2, 2, "Substitution", "選手交代", "draw:1", "U", is_sample=True)
    player(z2, 3, "Kenta Arai", "新井 健太", "FW", (7, 5, 2), "R", kashima, is_sample=True)


def ids(query: str) -> list[str]:
    """Return the ids of our cards a query finds, in the query's order."""
    return list(card_search(query=query).filter(card_set__in=OUR_SETS).values_list("id", flat=True))


def found(query: str) -> set[str]:
    return set(ids(query))


ALL = {"ZB-001", "ZB-002", "ZB-003", "ZB-004", "ZB-005", "Z2-001", "Z2-002", "Z2-003"}


# --- free words -------------------------------------------------------------------------------


def test_a_free_word_matches_the_english_name_japanese_name_or_person(cards):
    assert found("arai") == {"ZB-001", "ZB-002", "Z2-003"}
    assert found("新井") == {"ZB-001", "Z2-003"}
    assert found("miura") == {"ZB-005"}  # the person "K. Miura" and the name "King Miura"
    assert found("k.") == {"ZB-005"}


def test_free_words_are_anded_and_a_quoted_phrase_matches_as_a_whole(cards):
    assert found("kenta arai") == {"ZB-001", "Z2-003"}
    assert found("arai kenta") == {"ZB-001", "Z2-003"}
    assert found('"kenta arai"') == {"ZB-001", "Z2-003"}
    assert found('"arai kenta"') == set()
    assert found('"KENTA   ARAI"') == {"ZB-001", "Z2-003"}  # case and extra spaces do not matter


def test_full_width_and_half_width_input_matches_like_ascii_and_katakana(cards):
    assert found("ＡＲＡＩ") == found("arai")
    assert found("ｱﾗｲ") == found("アライ") == {"ZB-002"}
    assert found("ﾏﾙｺ・ｱﾗｲ") == {"ZB-002"}


def test_full_width_text_in_the_data_matches_an_ascii_query(cards):
    assert found("kazu") == {"ZB-005"}  # stored as "ＫＡＺＵ 三浦"


def test_japanese_quotes_work_like_double_quotes(cards):
    assert found("「新井 健太」") == {"ZB-001", "Z2-003"}
    assert found("“kenta arai”") == {"ZB-001", "Z2-003"}


def test_one_and_two_character_japanese_queries(cards):
    assert found("森") == {"ZB-003"}
    assert found("鈴木") == {"Z2-001"}
    assert found("井") == {"ZB-001", "Z2-003"}
    assert found("健太") == {"ZB-001", "Z2-003"}
    assert found("ｱﾗ") == {"ZB-002"}
    assert found("井健") == set()  # family and given name are separate words


def test_a_short_phrase_with_a_space_matches_across_words(cards):
    assert found('"井 健"') == {"ZB-001", "Z2-003"}
    assert found('" 森 "') == {"ZB-003"}  # a phrase is trimmed


def test_short_words_use_the_gram_index_only_on_postgresql(cards):
    assert "search_grams" in str(parse_query("森", vendor="postgresql").q)
    assert "search_grams" in str(parse_query("鈴木", vendor="postgresql").q)
    assert "search_grams" not in str(parse_query("新井健", vendor="postgresql").q)
    assert "search_grams" not in str(parse_query('"井 健"', vendor="postgresql").q)
    assert "search_grams" in str(parse_query('" 森 "', vendor="postgresql").q)  # trimmed
    assert "search_grams" not in str(parse_query("森", vendor="sqlite").q)
    sql = str(card_search(query="森").query).split("WHERE")[1]
    assert ("search_grams" in sql) == (connection.vendor == "postgresql")


def test_name_field_is_the_same_as_a_free_word(cards):
    assert found("name:arai") == found("arai")
    assert found("name:or") == found('"or"') == {"ZB-003"}  # Mori
    assert found("name:ＡＲＡＩ") == found("arai")


# --- fields -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "query", ["set:ZB", "set:zb", "s:ZB", "set:ＺＢ", "ｓｅｔ：ｚｂ", 'set:"ZB"']
)
def test_set_code_is_case_insensitive_and_reads_full_width(cards, query):
    assert found(query) == {"ZB-001", "ZB-002", "ZB-003", "ZB-004", "ZB-005"}


def test_set_accepts_a_list_and_full_width_bs_is_bs(cards):
    assert found("set:ZB,Z2") == ALL
    assert found("set:Z2，ZB") == ALL
    assert card_search(query="set:ＢＳ").count() == Card.objects.filter(card_set="BS").count()


@pytest.mark.parametrize(
    "query, expected",
    [
        ("kind:player", {"ZB-001", "ZB-002", "ZB-005", "Z2-001", "Z2-003"}),
        ("kind:goalkeeper", {"ZB-003"}),
        ("kind:gk", {"ZB-003"}),
        ("kind:keeper", {"ZB-003"}),
        ("kind:EVENT", {"ZB-004", "Z2-002"}),
        ("kind:gk,event", {"ZB-003", "ZB-004", "Z2-002"}),
        ("is:event", {"ZB-004", "Z2-002"}),
        ("is:gk", {"ZB-003"}),
        ("-kind:player", {"ZB-003", "ZB-004", "Z2-002"}),
    ],
)
def test_kind_and_its_aliases(cards, query, expected):
    assert found(query) == expected


@pytest.mark.parametrize(
    "query, expected",
    [
        ("pos:FW", {"ZB-001", "ZB-005", "Z2-003"}),
        ("pos:fw", {"ZB-001", "ZB-005", "Z2-003"}),
        ("position:DF", {"Z2-001"}),
        ("pos:GK", {"ZB-003"}),
        ("pos:MF,DF", {"ZB-002", "Z2-001"}),
        ("pos!=FW", ALL - {"ZB-001", "ZB-005", "Z2-003"}),
    ],
)
def test_position(cards, query, expected):
    assert found(query) == expected


KASHIMA = {"ZB-001", "ZB-003", "Z2-001", "Z2-003"}
IWATA = {"ZB-002", "ZB-005"}


@pytest.mark.parametrize(
    "query, expected",
    [
        ("team:kashima", KASHIMA),  # code
        ('team:"Kashima Antlers"', KASHIMA),  # English name
        ("team:antlers", KASHIMA),
        ("team:鹿島", KASHIMA),  # Japanese name
        ("team:ｱﾝﾄﾗｰｽﾞ", KASHIMA),  # half-width katakana
        ("team:ＩＷＡＴＡ", IWATA),
        ("team:júbilo", IWATA),
        ("team:jubilo", IWATA),  # no accent
        ("-team:kashima", ALL - KASHIMA),  # events have no team and are kept
    ],
)
def test_team_matches_code_english_or_japanese_name(cards, query, expected):
    assert found(query) == expected


def test_person_effect_and_rarity(cards):
    assert found('person:"kenta arai"') == {"ZB-001", "Z2-003"}
    assert found("person:k.") == {"ZB-005"}
    assert found("effect:draw") == {"Z2-002"}
    assert found("effect:SHOOT") == {"ZB-004"}
    assert found("effect:shoot:+2") == {"ZB-004"}
    assert found("r:sr") == {"ZB-005", "Z2-001"}
    assert found("rarity:C,U") == {"ZB-002", "ZB-003", "ZB-004", "Z2-002"}
    assert found("rarity>=R") == {"ZB-001", "ZB-005", "Z2-001", "Z2-003"}
    assert found("rarity>R") == {"ZB-005", "Z2-001"}
    assert found("rarity<U") == {"ZB-003", "ZB-004"}
    assert found("rarity<=U") == {"ZB-002", "ZB-003", "ZB-004", "Z2-002"}
    assert found("rarity!=C") == ALL - {"ZB-003", "ZB-004"}


# shoot: ZB-001 8, ZB-002 5, ZB-003 0, ZB-004 0, ZB-005 9, Z2-001 1, Z2-002 0, Z2-003 7
@pytest.mark.parametrize(
    "query, expected",
    [
        ("shoot:8", {"ZB-001"}),
        ("shoot=8", {"ZB-001"}),
        ("shoot!=0", {"ZB-001", "ZB-002", "ZB-005", "Z2-001", "Z2-003"}),
        ("shoot<1", {"ZB-003", "ZB-004", "Z2-002"}),
        ("shoot<=1", {"ZB-003", "ZB-004", "Z2-002", "Z2-001"}),
        ("shoot>8", {"ZB-005"}),
        ("shoot>=8", {"ZB-001", "ZB-005"}),
        ("shoot>=８", {"ZB-001", "ZB-005"}),  # full-width digit
        ("ｓｈｏｏｔ＞＝８", {"ZB-001", "ZB-005"}),
        ("keep>=5", {"ZB-002", "Z2-003"}),
        ("keep:2", {"ZB-003"}),
        ("def>=7", {"ZB-003", "Z2-001"}),
        ("defense<1", {"ZB-004", "ZB-005", "Z2-002"}),
        ("def!=0", {"ZB-001", "ZB-002", "ZB-003", "Z2-001", "Z2-003"}),
        ("shoot>keep", {"ZB-001", "ZB-005", "Z2-003"}),
        ("def>=shoot kind:player", {"Z2-001"}),
        ("number:1", {"ZB-001", "Z2-001"}),
        ("number>=4", {"ZB-004", "ZB-005"}),
        ("number<2", {"ZB-001", "Z2-001"}),
        ("year:2001", {"ZB-001", "ZB-002", "ZB-003", "ZB-004", "ZB-005"}),
        ("year>2001", {"Z2-001", "Z2-002", "Z2-003"}),
        ("year<=2001", {"ZB-001", "ZB-002", "ZB-003", "ZB-004", "ZB-005"}),
        ("year!=2002", {"ZB-001", "ZB-002", "ZB-003", "ZB-004", "ZB-005"}),
    ],
)
def test_numeric_fields_and_every_operator(cards, query, expected):
    assert found(query) == expected


def test_sample_cards(cards):
    assert found("is:sample") == {"Z2-001", "Z2-002", "Z2-003"}
    assert found("not:sample") == {"ZB-001", "ZB-002", "ZB-003", "ZB-004", "ZB-005"}
    assert found("-is:sample") == found("not:sample")
    assert found("-not:sample") == found("is:sample")


# --- combining --------------------------------------------------------------------------------


def test_negation_of_a_word_a_term_and_a_group(cards):
    assert found("arai -kenta") == {"ZB-002"}
    assert found("-arai") == ALL - {"ZB-001", "ZB-002", "Z2-003"}
    assert found("arai -(pos:FW is:sample)") == {"ZB-001", "ZB-002"}
    assert found("--pos:GK") == {"ZB-003"}
    assert found('-"kenta arai" kind:player') == {"ZB-002", "ZB-005", "Z2-001"}


def test_or_binds_looser_than_and(cards):
    assert found("mori or suzuki") == {"ZB-003", "Z2-001"}
    assert found("mori OR arai pos:MF") == {"ZB-003", "ZB-002"}
    assert found("(mori or arai) pos:FW") == {"ZB-001", "Z2-003"}
    assert found("arai and pos:MF") == {"ZB-002"}
    assert found("kind:event or shoot>=9 or 森") == {"ZB-004", "Z2-002", "ZB-005", "ZB-003"}


def test_nested_parentheses_and_negated_or(cards):
    assert found("((arai or mori) -(is:sample or pos:MF))") == {"ZB-001", "ZB-003"}
    assert found("-(kind:event or kind:player)") == {"ZB-003"}


def test_full_width_parentheses_and_minus(cards):
    assert found("（mori or suzuki）") == {"ZB-003", "Z2-001"}
    assert found("arai －kenta") == {"ZB-002"}


# --- ordering ---------------------------------------------------------------------------------

DEFAULT = ["ZB-001", "ZB-002", "ZB-003", "ZB-004", "ZB-005", "Z2-001", "Z2-002", "Z2-003"]


def test_default_order_is_set_then_number(cards):
    assert ids("") == DEFAULT
    assert ids("order:id") == ids("order:number") == ids("order:set") == DEFAULT
    assert ids("direction:desc") == DEFAULT[::-1]
    assert ids("order:-id") == DEFAULT[::-1]


def test_order_by_a_stat_both_ways_ties_in_set_order(cards):
    by_shoot = ["ZB-003", "ZB-004", "Z2-002", "Z2-001", "ZB-002", "Z2-003", "ZB-001", "ZB-005"]
    assert ids("order:shoot") == by_shoot
    highest_first = ["ZB-005", "ZB-001", "Z2-003", "ZB-002", "Z2-001", "ZB-003", "ZB-004", "Z2-002"]
    assert ids("order:-shoot") == highest_first
    assert ids("order:shoot direction:desc") == highest_first
    assert ids("order:shoot dir:asc") == by_shoot
    assert ids("kind:player order:keep")[:3] == ["ZB-001", "ZB-005", "Z2-001"]
    assert ids("order:-def")[:2] == ["Z2-001", "ZB-003"]


def test_order_by_name_and_kind(cards):
    names = ["Hiroshi Mori", "Kenta Arai", "Kenta Arai", "King Miura", "Marco Arai"]
    names += ["Power Shot", "Substitution", "Taro Suzuki"]
    found_names = [Card.objects.get(id=i).name for i in ids("order:name")]
    assert found_names == names
    assert ids("order:name")[1:3] == ["ZB-001", "Z2-003"]  # a tie keeps set order
    assert ids("order:-name")[0] == "Z2-001"
    assert ids("order:kind")[:2] == ["ZB-004", "Z2-002"]  # event < goalkeeper < player


def test_order_by_team_puts_cards_without_a_team_last_both_ways(cards):
    ascending = ids("order:team")
    assert ascending[:2] == ["ZB-002", "ZB-005"]  # Júbilo Iwata before Kashima Antlers
    assert ascending[-2:] == ["ZB-004", "Z2-002"]
    descending = ids("order:-team")
    assert descending[:4] == ["ZB-001", "ZB-003", "Z2-001", "Z2-003"]
    assert descending[-2:] == ["ZB-004", "Z2-002"]


def test_several_order_terms_sort_by_each_in_turn(cards):
    assert ids("kind:player order:-team order:-shoot") == [
        "ZB-001",
        "Z2-003",
        "Z2-001",
        "ZB-005",
        "ZB-002",
    ]


def test_order_terms_may_stand_inside_parentheses_and_or(cards):
    assert ids("(arai order:-shoot)") == ["ZB-001", "Z2-003", "ZB-002"]
    assert ids("mori or arai order:-shoot") == ["ZB-001", "Z2-003", "ZB-002", "ZB-003"]


def test_order_by_is_a_list_of_django_field_names():
    # catalog_order is the set's display order and the number in one indexed column.
    assert parse_query("").order_by == ["catalog_order"]
    assert parse_query("order:-shoot").order_by == ["-shoot", "catalog_order"]
    assert parse_query("order:team direction:desc").order_by == ["-team__name", "catalog_order"]
    assert parse_query("order:set direction:desc").order_by == ["-catalog_order"]


# --- plain words ------------------------------------------------------------------------------


def test_describe_says_the_query_in_plain_words():
    parsed = parse_query("shoot>=5 set:bs")
    assert parsed.terms == ["shoot ≥ 5", "set is BS"]
    assert describe(parsed) == "shoot ≥ 5 and set is BS"
    assert describe(parse_query("")) == "all cards"
    assert describe(parse_query("-pos:FW -shoot<3")) == "position is not FW and shoot ≥ 3"
    assert (
        describe(parse_query("arai or (kind:gk -is:sample) order:-shoot"))
        == 'name contains "arai" or (kind is goalkeeper and is not a sample card), '
        "sorted by shoot (descending)"
    )
    assert describe(parse_query("-(a or b)")) == 'not (name contains "a" or name contains "b")'
    assert (
        parse_query("direction:desc").description
        == "all cards, sorted by set and number (descending)"
    )


# --- errors -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "query, message",
    [
        ("pos:FW arai) x", 'Unexpected ")" at column 12'),
        (
            "foo:bar",
            'Unknown field "foo" at column 1 (known: set, kind, pos, team, person, rarity, '
            "effect, shoot, keep, def, number, year, is, not, has, name, id, printing, "
            "printings, order, direction)",
        ),
        (
            "x shot>3",
            'Unknown field "shot" at column 3 (did you mean "shoot"? known: set, kind, pos, '
            "team, person, rarity, effect, shoot, keep, def, number, year, is, not, has, name, id, "
            "printing, printings, order, direction)",
        ),
        ("shoot:x", '"shoot" needs a number at column 7'),
        ("def>=1.5", '"def" needs a number at column 6'),
        ("year:99999", '"year" needs a number at column 6 (0 to 9999)'),
        ("set:", '"set" needs a value at column 5'),
        ("order: x", '"order" needs a value at column 7'),
        ("team: x", '"team" needs a value at column 6'),
        ('set:""', '"set" needs a value at column 5'),
        ("set:,", '"set" needs a value at column 5'),
        ("set<BS", '"set" cannot be compared with "<" at column 4 (use ":" or "!=")'),
        ("order>name", '"order" cannot be compared with ">" at column 6 (use ":")'),
        (
            "kind:wizard",
            'Unknown kind "wizard" at column 6 (known: player, goalkeeper (gk, keeper), event)',
        ),
        (
            "kind:gk,elf",
            'Unknown kind "elf" at column 9 (known: player, goalkeeper (gk, keeper), event)',
        ),
        ("pos:ST", 'Unknown position "ST" at column 5 (known: FW, MF, DF, GK)'),
        ("rarity>=X", 'Unknown rarity "X" at column 9 (known: C, U, R, SR)'),
        (
            "is:shiny",
            'Unknown value "shiny" for "is" at column 4 '
            "(known: sample, pending, player, goalkeeper, event, reprint, promo, parallel, foil, "
            "owned)",
        ),
        (
            "order:power",
            'Unknown order "power" at column 7 (known: name, id, number, set, shoot, keep, '
            "defense, team, kind)",
        ),
        ("direction:up", 'Unknown direction "up" at column 11 (known: asc, desc)'),
        ("-order:name", '"order" cannot be negated at column 2'),
        ("(pos:FW", 'Unclosed "(" at column 1'),
        ("a (b (c)", 'Unclosed "(" at column 3'),
        ("()", "Nothing to search for inside the parentheses at column 1"),
        ('arai "kenta', "Unclosed quote at column 6"),
        ('team:"Kashima', "Unclosed quote at column 6"),
        ('""', "Nothing to search for inside the quotes at column 1"),
        ("arai - kenta", 'Nothing to negate after "-" at column 6'),
        ("arai -", 'Nothing to negate after "-" at column 6'),
        ("(-)", 'Nothing to negate after "-" at column 2'),
        ("or arai", '"or" needs a search term before it at column 1'),
        ("arai OR", '"OR" needs a search term after it at column 6'),
        ("arai or or mori", '"or" needs a search term after it at column 6'),
        ("and arai", '"and" needs a search term on both sides at column 1'),
        ("arai and", '"and" needs a search term on both sides at column 6'),
        ("(or)", '"or" needs a search term before it at column 2'),
        ("a -or b", 'Unexpected "or" at column 4'),
        ("arai\x00", "Unexpected character U+0000 at column 5"),
    ],
)
def test_bad_syntax_names_the_problem_and_its_column(query, message):
    with pytest.raises(QuerySyntaxError) as caught:
        parse_query(query)
    assert str(caught.value) == message
    assert caught.value.column == caught.value.position + 1
    assert f"at column {caught.value.column}" in message


def test_limits_keep_the_sql_small():
    with pytest.raises(QuerySyntaxError, match="Query is too long at column 1001"):
        parse_query("x" * (MAX_QUERY_LENGTH + 1))
    with pytest.raises(QuerySyntaxError, match="Too many search terms"):
        parse_query(" ".join(["a"] * (MAX_TERMS + 1)))
    with pytest.raises(QuerySyntaxError, match="Too many nested parentheses at column 21"):
        parse_query("(" * (MAX_DEPTH + 1) + "a" + ")" * (MAX_DEPTH + 1))
    parse_query("(" * MAX_DEPTH + "a" + ")" * MAX_DEPTH)
    parse_query("-" * 500 + "a")


def test_the_largest_queries_allowed_run_on_this_database(cards):
    terms = " ".join(f"-team:x{i}" for i in range(MAX_TERMS))
    assert found(terms) == ALL
    nested = "(" * MAX_DEPTH + "arai or mori" + ")" * MAX_DEPTH
    assert found(nested) == {"ZB-001", "ZB-002", "ZB-003", "Z2-003"}


def test_card_search_raises_the_syntax_error():
    with pytest.raises(QuerySyntaxError):
        card_search(query="shoot>=abc")


def test_card_search_needs_one_query_for_a_page_with_sets_and_teams(
    cards, django_assert_num_queries
):
    with django_assert_num_queries(1):
        page = list(card_search(query="set:ZB,Z2 order:team")[:8])
        names = [(c.card_set.name, c.team.name if c.team else "") for c in page]
    assert len(names) == 8


# --- the form controls ------------------------------------------------------------------------


def test_form_controls_become_a_query_the_parser_reads(cards):
    data = {
        "q": "arai",
        "set": "ZB",
        "kind": "player",
        "pos": "",
        "team": "Júbilo Iwata",
        "shoot_min": "4",
        "shoot_max": 9,
        "keep_min": "",
        "keep_max": "7",
        "def_min": None,
        "def_max": "3",
        "sample": "none",
        "order": "shoot",
        "direction": "desc",
    }
    query = card_filter_form_to_query(data)
    assert query == (
        'arai set:ZB kind:player team:"Júbilo Iwata" shoot>=4 shoot<=9 keep<=7 def<=3 '
        "not:sample order:shoot direction:desc"
    )
    assert ids(query) == ["ZB-002"]


def test_form_controls_read_a_querydict_and_skip_blanks_and_ascending(cards):
    data = QueryDict("q=&set=Z2&sample=only&order=&direction=asc&pos=FW")
    assert card_filter_form_to_query(data) == "set:Z2 pos:FW is:sample"
    assert card_filter_form_to_query(QueryDict("")) == ""
    assert card_filter_form_to_query({"sample": "any", "direction": "asc"}) == ""


def test_a_search_box_with_or_is_parenthesised_before_the_controls(cards):
    query = card_filter_form_to_query({"q": "mori or suzuki", "pos": "GK"})
    assert query == "(mori or suzuki) pos:GK"
    assert found(query) == {"ZB-003"}
    assert card_filter_form_to_query({"q": "mori or suzuki"}) == "mori or suzuki"


def test_a_bad_search_box_is_returned_alone_so_its_error_columns_hold():
    query = card_filter_form_to_query({"q": "arai or", "set": "ZB"})
    assert query == "arai or"
    with pytest.raises(QuerySyntaxError, match="at column 6"):
        parse_query(query)


@pytest.mark.parametrize("value", ['a"b', "x “y” z", "a\\b", "(paren)", "鹿島 アントラーズ", "-x"])
def test_quote_value_round_trips(value):
    parsed = parse_query("team:" + quote_value(value))
    assert parsed.terms == [f'team matches "{value.strip()}"']


# --- fuzzing ----------------------------------------------------------------------------------

SYNTAX_PIECES = [
    "(",
    ")",
    "（",
    "）",
    "-",
    "－",
    '"',
    "“",
    "」",
    "「",
    "\\",
    " ",
    "　",
    "or",
    "OR",
    "and",
    "set:",
    "set:BS",
    "has:",
    "has:errata",
    "has:ruling",
    "errata",
    "s:ＢＳ",
    "kind:gk",
    "pos:",
    "team:",
    "shoot",
    "shoot>=",
    "5",
    "５",
    "keep<",
    "def!=",
    ">",
    "<=",
    ":",
    "：",
    "order:",
    "order:-shoot",
    "direction:desc",
    "is:",
    "sample",
    "not:sample",
    "rarity>=",
    "R",
    "year:2001",
    "number:",
    "effect:draw",
    "name:",
    "arai",
    "ｱﾗｲ",
    "森",
    "鈴木",
    ",",
    "x",
    "foo:",
    "\x00",
    "㍿",
    "ﬀ",
]
pieces = st.lists(st.sampled_from(SYNTAX_PIECES), max_size=30).map("".join)
queries = st.one_of(st.text(max_size=200), pieces)


def parse_or_syntax_error(text: str):
    try:
        return parse_query(text)
    except QuerySyntaxError as exc:
        assert 0 <= exc.position <= len(text)
        assert str(exc).startswith(exc.problem)
        return None


@settings(max_examples=500, deadline=None)
@given(queries)
def test_any_text_parses_or_raises_only_a_syntax_error(text):
    result = parse_or_syntax_error(text)
    if result is not None:
        assert isinstance(result, ParsedQuery)
        describe(result)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(queries)
def test_any_query_that_parses_runs_on_the_database(cards, text):
    try:
        results = card_search(query=text)
    except QuerySyntaxError:
        return
    list(results[:3])


def test_syntax_errors_are_said_in_japanese_and_unchanged_in_english():
    from django.utils import translation

    from catalog.search.query import QuerySyntaxError, parse_query

    with translation.override("ja"), pytest.raises(QuerySyntaxError) as ja:
        parse_query("is:samp")
    assert str(ja.value).startswith("4文字目：「is」の値「samp」は不明です")
    with translation.override("en"), pytest.raises(QuerySyntaxError) as en:
        parse_query("is:samp")
    assert str(en.value).startswith('Unknown value "samp" for "is" at column 4 (did you mean')


# --- card ids and kana readings (issue #10) ------------------------------------------------------


@pytest.mark.parametrize("query", ["ZB-004", "zb-4", "zb-004", "ｚｂ－４", "id:ZB-004", "id:zb-4"])
def test_a_card_id_is_a_search_term(cards, query):
    assert found(query) == {"ZB-004"}


def test_id_takes_a_list_and_can_be_negated(cards):
    assert found("id:ZB-001,Z2-1") == {"ZB-001", "Z2-001"}
    assert found("set:ZB -zb-1") == {"ZB-002", "ZB-003", "ZB-004", "ZB-005"}
    assert parse_query("bs-14").description == "card is BS-014"


def test_a_quoted_id_or_a_name_term_searches_names_not_ids(cards):
    assert found('"zb-4"') == set()
    assert found("name:zb-4") == set()


def test_an_id_term_that_is_not_an_id_is_a_syntax_error(cards):
    with pytest.raises(QuerySyntaxError, match='"arai" is not a card id at column 4'):
        parse_query("id:arai")


def test_the_card_search_of_the_real_catalog_finds_a_basic_set_card_by_id():
    assert list(card_search(query="bs-14").values_list("id", flat=True)) == ["BS-014"]


@pytest.fixture
def read_cards(cards):
    zb = CardSet.objects.get(code="ZB")
    player(
        zb, 6, "Kenta Suzuki", "鈴木 健太", "MF", (3, 3, 3), "C", None, name_kana="すずき けんた"
    )


@pytest.mark.parametrize(
    "query", ["すずき", "スズキ", "ｽｽﾞｷ", "ｽｽﾞｷ ｹﾝﾀ", "すずき けんた", "name:スズキ"]
)
def test_a_reading_is_found_in_hiragana_katakana_and_half_width_katakana(read_cards, query):
    assert found(query) == {"ZB-006"}


def test_katakana_names_are_found_in_hiragana(cards):
    assert found("ぱわーしゅーと") == {"ZB-004"}
    assert found("あらい") == {"ZB-002"}


def test_the_readme_examples_find_cards_in_the_sample_pool():
    for query in ("arai", "鈴木", "ｽｽﾞｷ"):
        assert card_search(query=query).exists(), query
    assert set(card_search(query="ｽｽﾞｷ")) == set(card_search(query="鈴木"))
