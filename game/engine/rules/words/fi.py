"""Finnish: the words Finnish kaisa players use (lyöntipallo, kaisa, punainen, pussi, valli, kotialue,
kotiviiva, karamboli, maalaus (the call), välipallo (a kiss), teikkaus (the lag), virhe, virhepisteet,
vuoro; docs/i18n.md has the glossary).

Names carry the cases the templates ask for ("nom", "gen", "part", "ill" into, "ela" out of, "ade"
with); numbers take the partitive after any count but one (1 piste, 2 pistettä) through :func:`_n`.
Player names are never inflected: "pelaajan alice lyöntipallo" reads right whatever the name is.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from game.engine.rules.words.catalogue import Catalogue, Namer, Template, both_stopped


def _n(count: int, one: str, many: str) -> str:
    """ "1 piste", "2 pistettä", "0 pistettä" (Finnish numerals other than one take the partitive)."""
    return f"{count} {one if count == 1 else many}"


def _points(n: int) -> str:
    return _n(n, "piste", "pistettä")


def _penalty(n: int) -> str:
    """ "3 virhepistettä" (the points a foul costs, K-8)."""
    return _n(n, "virhepiste", "virhepistettä")


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _won(p: Mapping[str, Any]) -> str:
    won = p.get("won")
    if not won:
        return ""
    return f". {won['winner']} voitti ottelun"


def _pot(w: Namer, p: Mapping[str, Any]) -> str:
    call = p["call"]
    text = _cap(f"{w.ball(call['ball'])} {w.pocket(call['pocket'], 'ill')}")
    if call.get("cue_cushions"):
        text += f", lyöntipallo {call['cue_cushions']} vallin kautta"
    if call.get("object_cushions"):
        text += f", {call['object_cushions']} vallin kautta"
    if call.get("via") is not None:
        if p.get("mode") == "combination":
            text += f", yhdistelmänä {w.ball(call['via'], 'gen')} kautta"
        else:
            text += f", välipallo {w.ball(call['via'])}"
    if p.get("caroms"):
        text += f", karamboli {w.balls(p['caroms'], 'ill')}"
    text += f": {_points(p['points'])}"
    notes = p.get("notes") or ()
    if "carom_left_table" in notes:
        text += "; karambolipallo lensi pöydältä, vuoro päättyy"
    if "plain_white_passes" in notes:
        text += "; pelkkä valkoinen ei voita, vuoro vaihtuu"
    if p.get("others"):
        text += f"; lisäksi putosi {w.balls(p['others'])}, ei pisteitä"
    return text + _won(p)


def _missed(w: Namer, p: Mapping[str, Any]) -> str:
    failure = FI_FAILURES.get(str(p.get("failure")))
    why = failure(w, p) if failure else "maalaus ei toteutunut"
    return f"Maalaus ei toteutunut: {why}; vuoro päättyy"


def _cue_lost(how: str) -> Template:
    def words(w: Namer, p: Mapping[str, Any]) -> str:
        w.fresh()
        hit = (
            "osumatta yhteenkään palloon"
            if p.get("first_hit") is None
            else f"osuttuaan ensin {w.ball(p['first_hit'], 'ill')}"
        )
        return f"Virhe: {w.ball(p['cue'])} {how} {hit}: {_penalty(p['penalty'])}"

    return words


def _late(p: Mapping[str, Any]) -> str:
    return f"Pelaajan {p['player']} lyöntiaika loppui ({p['count']}/{p['limit']})"


#: Why a lag was lost (K-3.1), in the few words of a lag's verdict.
_LAG_LOST = {
    "lag_pocketed": "pussiin",
    "lag_touched_ball": "osui palloon",
    "lag_long_cushion": "pitkä valli",
    "lag_crossed": "keskiviivan yli",
    "lag_short": "ei yltänyt päätyvalliin",
}


def _lag(w: Namer, p: Mapping[str, Any]) -> str:
    """A lag's verdict (K-3.1), short enough for a banner over a phone's table: a lag alone says its
    distance or why it was lost; the deciding lag names each player once with his distance, the winner
    first. On an upright table (a phone's, its banners a third as wide) who chooses the break is left to
    the phase's own notice, the other's distance follows the winner's without his name, and a number keeps
    its unit on its line."""
    player, why = p["player"], _LAG_LOST.get(p["result"])
    if not p.get("lags"):
        if why:
            return f"Teikkaus, {player}: hävisi, {why}"
        return f"Teikkaus, {player}: {(p.get('distance') or 0.0) * 1000:.0f} mm kotivallista"

    def result(name: str, distance: float | None) -> str:
        if distance is not None:
            return f"{name} {distance * 1000:.0f} mm"
        return f"{name} hävisi ({why})" if name == player and why else f"{name} hävisi"

    if p.get("winner"):
        (_, won), (loser, lost) = sorted(p["lags"], key=lambda lag: lag[0] != p["winner"])
        if w.cat.upright and lost is not None:
            return f"Teikkaus: {p['winner']} voitti, {(won or 0.0) * 1000:.0f}\u00a0mm – {lost * 1000:.0f}\u00a0mm"
        text = f"{p['winner']} voittaa teikkauksen: {(won or 0.0) * 1000:.0f} mm, {result(loser, lost)}"
        return text if w.cat.upright else text + "; voittaja valitsee aloittajan"
    if both_stopped(p):
        return "Teikataan uudelleen: " + ", ".join(result(n, d) for n, d in p["lags"]) + ", tasan 1 mm:n tarkkuudella"
    return "Teikataan uudelleen: molemmat hävisivät" + (f" ({player}: {why})" if why else "")


def _not_dropped(w: Namer, p: Mapping[str, Any]) -> str:
    """By how much, when the rules measured it (rules/miss.py): left and right as the ball ran."""
    miss = p.get("miss")
    ball = w.ball(p["ball"])
    if not miss:
        return f"{ball} ei pudonnut"
    if miss["at"] == "jaw":
        side = "vasempaan" if miss["side"] == "left" else "oikeaan"
        return f"{ball} osui pussin {side} reunaan eikä pudonnut"
    side = "vasemmalle" if miss["side"] == "left" else "oikealle"
    return f"{ball} osui valliin {miss['mm']} mm pussin reunasta {side}"


FI_FAILURES: dict[str, Template] = {
    "no_ball_hit": lambda w, p: "lyöntipallo ei osunut yhteenkään palloon",
    "wrong_first_ball": lambda w, p: (
        f"lyöntipallo osui ensin {w.ball(p['first'], 'ill')}, ei {w.ball(p['called'], 'ill')}"
    ),
    "cue_cushions": lambda w, p: (
        f"lyöntipallo osui {p['counted']} valliin ennen ensimmäistä palloa, maalattuja valleja: {p['called']}"
    ),
    "not_dropped": lambda w, p: _not_dropped(w, p),
    "wrong_pocket": lambda w, p: (
        f"{w.ball(p['ball'])} putosi {w.pocket(p['pocket'], 'ill')}, ei {w.pocket(p['called'], 'ill')}"
    ),
    "object_cushions": lambda w, p: (
        f"{w.ball(p['ball'])} osui {p['counted']} valliin ennen putoamista, maalattuja valleja: {p['called']}"
    ),
    "unexpected_contact": lambda w, p: (
        f"{w.ball(p['ball'])} osui {w.ball(p['other'], 'ill')} ennen putoamista (välipalloa ei maalattu)"
    ),
    "kiss_missed": lambda w, p: (
        f"{w.ball(p['ball'])} ei osunut {w.ball(p['via'], 'ill')}: maalattu välipallo ei toteutunut"
    ),
    "kiss_extra_contact": lambda w, p: (
        f"{w.ball(p['ball'])} osui {w.ball(p['other'], 'ill')} maalatun välipallon lisäksi"
    ),
    "combination_failed": lambda w, p: (
        f"{w.ball(p['via'])} ei ohjannut {w.ball(p['ball'], 'part')} pussiin: yhdistelmä epäonnistui"
    ),
    "combination_extra_contact": lambda w, p: (
        f"{w.ball(p['ball'])} osui {w.ball(p['other'], 'ill')} yhdistelmän lisäksi"
    ),
    "hand_cushion_in_home": lambda w, p: (
        "kädestä lyöntipallon ensimmäisen vallikosketuksen pitää olla kotiviivan takana, mutta se oli kotialueella"
    ),
}

FI_LAGS: dict[str, Callable[[float | None], str]] = {
    "lag_pocketed": lambda d: "pallo putosi pussiin",
    "lag_touched_ball": lambda d: "pallo osui toiseen palloon",
    "lag_long_cushion": lambda d: "pallo osui pitkään valliin",
    "lag_crossed": lambda d: "pallo meni vastustajan puolelle",
    "lag_short": lambda d: "pallo ei yltänyt päätyvalliin",
    "lag_stopped": lambda d: f"pallo pysähtyi {(d or 0.0) * 1000:.0f} mm:n päähän kotivallista",
}

FI_VERDICTS: dict[str, Template] = {
    "pot": _pot,
    "call_missed": _missed,
    "wrong_cue_ball": lambda w, p: (
        f"Lyötiin {w.ball(p['struck'], 'part')}, ei {w.ball(p['cue'], 'part')}: ei pisteitä, vuoro päättyy"
    ),
    "replay_home_line": lambda w, p: "Lyöntipallo ei ylittänyt kotiviivaa: lyönti uusitaan",
    "cue_ball_pocketed": _cue_lost("putosi pussiin"),
    "cue_ball_off_table": _cue_lost("lensi pöydältä"),
    "push_or_double_hit": lambda w, p: "Työntö tai kaksoiskosketus: ei pisteitä, vuoro päättyy",
    "hand_attack": lambda w, p: (
        f"Kädestä lyöntipallo osui kotialueella {w.fresh().ball(p['ball'], 'ill')} koskematta ensin valliin "
        "kotiviivan takana: ei pisteitä, vuoro päättyy"
    ),
    "object_jumped": lambda w, p: f"Ei pisteitä: {w.ball(p['ball'])} hyppäsi pois veralta; vuoro päättyy",
    "rolled_along_cushion": lambda w, p: f"Ei pisteitä: {w.ball(p['ball'])} vieri pussiin vallia pitkin; vuoro päättyy",
    "frozen_to_cushion": lambda w, p: (
        f"Ei pisteitä: {w.ball(p['ball'])} oli kiinni vallissa, eikä vallissa kiinni olevan pallon suora "
        "pussitus tuo pisteitä; vuoro päättyy"
    ),
    "kiss_off_frozen_ball": lambda w, p: (
        f"Kosketus vallissa kiinni olevan pallon kautta ({w.ball(p['via'])}) ei tuo pisteitä, vuoro päättyy"
    ),
    "lag": _lag,
    "break_chosen": lambda w, p: f"{p['breaker']} aloittaa; {p['placer']} asettaa lyöntipallon keskiviivan taakse",
    "shootout_started": lambda w, p: f"{p['starter']} aloittaa ratkaisulyönnit",
    "opening_placed": lambda w, p: f"{p['player']} asetti lyöntipallon; {p['breaker']} aloittaa kotialueelta",
    "hand_placed": lambda w, p: f"{p['player']} asetti lyöntipallon kotialueelle",
    "touch_foul": lambda w, p: (
        f"{p['player']} kosketti palloa: vuoro päättyy"
        + (f", {_penalty(p['penalty'])}" if p.get("penalty") else "")
        + _won(p)
    ),
    "resigned": lambda w, p: f"{p['loser']} luovutti{_won(p) or '. ' + p['winner'] + ' voittaa'}",
    "forfeit": lambda w, p: f"{p['loser']}: {p['reason']}{_won(p) or '. ' + p['winner'] + ' voittaa'}",
    "clock": lambda w, p: "Kello päivitetty",
    "aborted": lambda w, p: FI_FINISHES[p["why"]](w, p),
    "shot_clock": lambda w, p: f"{_late(p)}: vuoro pelaajalle {p['other']}",
    "shot_clock_choice": lambda w, p: f"{_late(p)}: {p['other']} valitsee",
    "shot_clock_lag": lambda w, p: f"{_late(p)}: teikkaus hävitty",
    "shot_clock_relag": lambda w, p: f"{_late(p)}: teikkaus hävitty; molemmat hävisivät: teikataan uudelleen",
    "shot_clock_lag_won": lambda w, p: (
        f"{_late(p)}: teikkaus hävitty; {p['other']} voittaa teikkauksen ja valitsee aloittajan"
    ),
    "shot_clock_lost": lambda w, p: FI_FINISHES["shot_clock_lost"](w, p),
}

FI_FINISHES: dict[str, Template] = {
    "target_reached": lambda w, p: "tavoitepisteet saavutettu",
    "shootout_higher": lambda w, p: "enemmän pisteitä ratkaisulyöntien jälkeen (K-11.4)",
    "sudden_death": lambda w, p: "äkkikuolema (K-11.4)",
    "sudden_death_penalty": lambda w, p: "virhe äkkikuolemassa (K-11.4)",
    "resigned": lambda w, p: f"{p['loser']} luovutti",
    "forfeit": lambda w, p: f"{p['loser']}: {p['reason']}",
    "shot_clock_lost": lambda w, p: (
        f"pelaajan {p['player']} lyöntiaika loppui {_n(p['count'], 'kerran', 'kertaa')} peräkkäin"
    ),
    "aborted_by": lambda w, p: f"pelaaja {p['player']} keskeytti ennen aloituslyöntiä",
    "aborted_shot_clock": lambda w, p: "ei lyöntiä lyöntiajassa ennen aloituslyöntiä",
    "aborted_left": lambda w, p: f"{p['player']} lähti ennen aloituslyöntiä",
    "aborted_both_left": lambda w, p: "molemmat pelaajat lähtivät",
}

FI_REFUSALS: dict[str, Template] = {
    "game_over": lambda w, p: "peli on päättynyt",
    "wrong_phase": lambda w, p: f"ei mahdollista nyt (vaihe: {w.phase(p['phase'])})",
    "no_shots_now": lambda w, p: f"nyt ei lyödä (vaihe: {w.phase(p['phase'])})",
    "not_your_turn": lambda w, p: f"nyt on pelaajan {p['player']} vuoro",
    "not_your_visit": lambda w, p: f"joukkueesi vuorossa on nyt pelaaja {p['player']}",
    "only_lag_winner_chooses": lambda w, p: "vain teikkauksen voittaja valitsee",
    "only_shooter_touch_foul": lambda w, p: "vain lyöjä voi tunnustaa kosketusvirheen",
    "already_lagged": lambda w, p: f"{p['player']} on jo teikannut; odotetaan vastustajaa",
    "shootout_lag_over": lambda w, p: "ratkaisulyöntien teikkaus on jo ohi",
    "nothing_to_choose": lambda w, p: "nyt ei ole mitään valittavaa",
    "shootout_not_started": lambda w, p: "ratkaisulyönnit eivät ole alkaneet",
    "cue_ball_in_hand": lambda w, p: "aseta ensin lyöntipallosi kotialueelle",
    "not_in_hand": lambda w, p: "lyöntipallosi ei ole kädessä",
    "only_own_cue_ball": lambda w, p: "vain oman lyöntipallon voi asettaa",
    "own_cue_ball": lambda w, p: "se on oma lyöntipallosi: maalaa jokin toinen pallo",
    "own_cue_ball_via": lambda w, p: "omaa lyöntipalloa ei voi maalata välipalloksi",
    "ball_not_on_table": lambda w, p: f"{w.ball(p['ball'])} ei ole pöydällä",
    "shootout_call": lambda w, p: "ratkaisulyönneissä maalataan vain kaisa kulmapussiin (K-11.2)",
    "opening_call": lambda w, p: (
        "aloituslyönnissä maalataan kaisa tai takapisteen punainen kaukaiseen kulmapussiin (K-3.4)"
    ),
    "hand_middle_bank": lambda w, p: "kädestä keskipussiin saa maalata vain vallin kautta (K-7.2)",
    "hand_home_ball": lambda w, p: (
        f"kädestä kotialueella olevaan palloon ({w.ball(p['ball'])}) saa lyödä vain kotiviivan takana olevan "
        "vallin kautta (K-7.2)"
    ),
    "middle_kaisa_twice": lambda w, p: "kaisaa ei saa pussittaa suoraan keskipussiin kahdesti peräkkäin (K-6.4)",
    "strike_speed": lambda w, p: f"lyönnin nopeuden pitää olla yli 0 ja enintään {p['max_speed']:g} m/s",
    "miscue": lambda w, p: f"lipsahdus: kärki saa osua enintään {p['max_tip_offset']:g} säteen päähän pallon keskeltä",
    "place_beyond_centre": lambda w, p: "lyöntipallo pitää asettaa keskiviivan taakse",
    "place_corridor": lambda w, p: f"pallo tukkisi kaisan reitin keskipisteestä {w.pocket(p['pocket'], 'ill')}",
    "place_in_home": lambda w, p: "kädessä oleva pallo asetetaan kotialueelle (kotiviivaan asti)",
    "place_on_cloth": lambda w, p: "pallon pitää olla kokonaan veralla",
    "place_overlapping": lambda w, p: f"pallot menisivät päällekkäin: {w.ball(p['ball'])} ja {w.ball(p['other'])}",
    "place_touching": lambda w, p: f"pallo koskettaisi {w.ball(p['ball'], 'part')}",
}


def _duration(seconds: float) -> str:
    if seconds >= 60:
        return _n(round(seconds / 60), "minuutti", "minuuttia")
    return _n(max(1, round(seconds)), "sekunti", "sekuntia")


def _visits(count: int) -> str:
    return _n(count, "vuoro", "vuoroa")


def _score(points: int) -> str:
    return f"−{-points}" if points < 0 else str(points)


def _choice(w: Namer, p: Mapping[str, Any]) -> str:
    if p.get("shootout"):
        verb = "aloittaa ratkaisulyönnit" if p.get("take") else "antaa vastustajan aloittaa ratkaisulyönnit"
    else:
        verb = "aloittaa itse" if p.get("take") else "antaa aloituksen vastustajalle"
    return f"{p['player']} {verb}"


def _result_won(w: Namer, p: Mapping[str, Any]) -> str:
    how, loser = p["how"], p["loser"]
    words = {
        "target": f"{p['target']} pistettä saavutettu",
        "resign": f"{loser} luovutti",
        "shot_clock": f"pelaajan {loser} lyöntiaika loppui 3 kertaa peräkkäin",
        "abandoned": f"{loser} poistui ottelusta",
        "time_limit": "aikarajan jälkeen",
        "shootout": "ratkaisulyönneissä",
    }.get(how, str(how))
    return f"{p['winner']} voitti: {words}"


FI_TEXTS: dict[str, Template] = {
    "choice": _choice,
    "time_warning": lambda w, p: f"Aikaraja: viimeiset {_duration(p['seconds'])}",
    "time_up": lambda w, p: (
        f"Aika loppui: tämä kierros pelataan loppuun, sitten kumpikin saa vielä {_visits(p['extra_each'])} (K-11.1)"
        if p["extra_each"]
        else "Aika loppui: tämä kierros pelataan loppuun, sitten ratkaisulyönnit (K-11.1, K-11.2)"
    ),
    "extra_visits": lambda w, p: f"Lisävuorot: {_visits(p['extra_each'])} kummallekin, viimeisenä {p['last']} (K-11.1)",
    "shootout": lambda w, p: (
        "Ratkaisulyönnit: pöydälle jää vain kaisa; uusi teikkaus päättää aloittajan; enintään "
        f"{_visits(p['visits'])} kummallekin (K-11.2)"
    ),
    "sudden_death": lambda w, p: (
        f"Äkkikuolema: tasan {_visits(p['visits'])} jälkeen; ensimmäinen virhe häviää (K-11.4)"
    ),
    "result_won": _result_won,
    "result_aborted": lambda w, p: "Ottelu keskeytettiin",
}


def _cases(nom: str, gen: str, part: str, ill: str, ela: str, ade: str) -> dict[str, str]:
    return {"nom": nom, "gen": gen, "part": part, "ill": ill, "ela": ela, "ade": ade}


FINNISH = Catalogue(
    kaisa=_cases("kaisa", "kaisan", "kaisaa", "kaisaan", "kaisasta", "kaisalla"),
    a_red=_cases("punainen", "punaisen", "punaista", "punaiseen", "punaisesta", "punaisella"),
    the_red=_cases("punainen", "punaisen", "punaista", "punaiseen", "punaisesta", "punaisella"),
    other_red=_cases(
        "toinen punainen",
        "toisen punaisen",
        "toista punaista",
        "toiseen punaiseen",
        "toisesta punaisesta",
        "toisella punaisella",
    ),
    both_reds=_cases(
        "molemmat punaiset",
        "molempien punaisten",
        "molempia punaisia",
        "molempiin punaisiin",
        "molemmista punaisista",
        "molemmilla punaisilla",
    ),
    owned_cue=_cases(
        "pelaajan {owner} lyöntipallo",
        "pelaajan {owner} lyöntipallon",
        "pelaajan {owner} lyöntipalloa",
        "pelaajan {owner} lyöntipalloon",
        "pelaajan {owner} lyöntipallosta",
        "pelaajan {owner} lyöntipallolla",
    ),
    the_cue=_cases("lyöntipallo", "lyöntipallon", "lyöntipalloa", "lyöntipalloon", "lyöntipallosta", "lyöntipallolla"),
    opponent_cue=_cases(
        "vastustajan lyöntipallo",
        "vastustajan lyöntipallon",
        "vastustajan lyöntipalloa",
        "vastustajan lyöntipalloon",
        "vastustajan lyöntipallosta",
        "vastustajan lyöntipallolla",
    ),
    unknown_ball=_cases("pallo", "pallon", "palloa", "palloon", "pallosta", "pallolla"),
    unknown_pocket=_cases("pussi", "pussin", "pussia", "pussiin", "pussista", "pussilla"),
    unknown_phase="tämä vaihe",
    pockets={
        "home_right": _cases(
            "vasen alakulmapussi",
            "vasemman alakulmapussin",
            "vasenta alakulmapussia",
            "vasempaan alakulmapussiin",
            "vasemmasta alakulmapussista",
            "vasemmalla alakulmapussilla",
        ),
        "home_left": _cases(
            "vasen yläkulmapussi",
            "vasemman yläkulmapussin",
            "vasenta yläkulmapussia",
            "vasempaan yläkulmapussiin",
            "vasemmasta yläkulmapussista",
            "vasemmalla yläkulmapussilla",
        ),
        "middle_right": _cases(
            "alakeskipussi",
            "alakeskipussin",
            "alakeskipussia",
            "alakeskipussiin",
            "alakeskipussista",
            "alakeskipussilla",
        ),
        "middle_left": _cases(
            "yläkeskipussi",
            "yläkeskipussin",
            "yläkeskipussia",
            "yläkeskipussiin",
            "yläkeskipussista",
            "yläkeskipussilla",
        ),
        "foot_right": _cases(
            "oikea alakulmapussi",
            "oikean alakulmapussin",
            "oikeaa alakulmapussia",
            "oikeaan alakulmapussiin",
            "oikeasta alakulmapussista",
            "oikealla alakulmapussilla",
        ),
        "foot_left": _cases(
            "oikea yläkulmapussi",
            "oikean yläkulmapussin",
            "oikeaa yläkulmapussia",
            "oikeaan yläkulmapussiin",
            "oikeasta yläkulmapussista",
            "oikealla yläkulmapussilla",
        ),
    },
    side_pockets={
        "middle_left": _cases(
            "vasen keskipussi",
            "vasemman keskipussin",
            "vasenta keskipussia",
            "vasempaan keskipussiin",
            "vasemmasta keskipussista",
            "vasemmalla keskipussilla",
        ),
        "middle_right": _cases(
            "oikea keskipussi",
            "oikean keskipussin",
            "oikeaa keskipussia",
            "oikeaan keskipussiin",
            "oikeasta keskipussista",
            "oikealla keskipussilla",
        ),
    },
    phases={
        "lag": "teikkaus",
        "choose_break": "aloittajan valinta",
        "opening_placement": "lyöntipallon asettaminen ennen aloitusta",
        "play": "peli",
        "extra_visits": "lisävuorot",
        "shootout": "ratkaisulyönnit",
        "finished": "päättynyt peli",
    },
    verdicts=FI_VERDICTS,
    failures=FI_FAILURES,
    lags=FI_LAGS,
    refusals=FI_REFUSALS,
    finishes=FI_FINISHES,
    texts=FI_TEXTS,
    and_word="ja",
)
