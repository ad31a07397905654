"""Russian: the seed's own terms (биток, прицельный шар, луза, дом, карамболь, заказ, кайза, штраф, соударение,
подход, розыгрыш начального удара, серия пенальти; docs/i18n.md has the glossary).

Names carry their cases ("nom", "acc", "gen", "dat", "ins", "pre"); verbs agree with a ball's gender
(кайза is feminine, биток and красный шар masculine) through :func:`_v`; numbers take the three
Russian plural forms through :func:`plural`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from game.engine.rules.words.catalogue import Catalogue, Namer, Template, both_stopped


def plural(count: int, one: str, few: str, many: str) -> str:
    """The Russian plural: 1, 21 очко; 2–4, 22 очка; 5–20, 11–14 очков."""
    n = abs(count)
    if n % 10 == 1 and n % 100 != 11:
        return one
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return few
    return many


def _n(count: int, one: str, few: str, many: str) -> str:
    return f"{count} {plural(count, one, few, many)}"


def _points(n: int) -> str:
    return _n(n, "очко", "очка", "очков")


def _cushions_gen(n: int) -> str:
    """ "от 1 борта", "от 2 бортов" (the genitive after a preposition)."""
    return f"{n} {'борта' if n % 10 == 1 and n % 100 != 11 else 'бортов'}"


def _v(w: Namer, ball: object, masculine: str, feminine: str) -> str:
    """A past-tense verb that agrees with the ball's name."""
    return feminine if w.gender(ball) == "f" else masculine


def _won(p: Mapping[str, Any]) -> str:
    won = p.get("won")
    if not won:
        return ""
    return f". {won['winner']} выигрывает партию"


def _pot(w: Namer, p: Mapping[str, Any]) -> str:
    call = p["call"]
    ball = call["ball"]
    text = f"{_v(w, ball, 'Забит', 'Забита')} {w.ball(ball)} в {w.pocket(call['pocket'], 'acc')}"
    if call.get("cue_cushions"):
        text += f", биток через {_n(call['cue_cushions'], 'борт', 'борта', 'бортов')}"
    if call.get("object_cushions"):
        text += f", от {_cushions_gen(call['object_cushions'])}"
    if call.get("via") is not None:
        via = call["via"]
        if p.get("mode") == "combination":
            text += f", комбинацией через {w.ball(via, 'acc')}"
        else:
            text += f", с соударением с {w.ball(via, 'ins')}"
    if p.get("caroms"):
        text += f", с карамболем по {w.balls(p['caroms'], 'dat')}"
    text += f": {_points(p['points'])}"
    notes = p.get("notes") or ()
    if "carom_left_table" in notes:
        text += "; шар карамболя вылетел со стола, подход окончен"
    if "plain_white_passes" in notes:
        text += "; простой забитый биток не приносит победы, ход переходит к сопернику"
    if p.get("others"):
        text += f"; упали также: {w.balls(p['others'])}, без очков"
    return text + _won(p)


def _missed(w: Namer, p: Mapping[str, Any]) -> str:
    failure = RU_FAILURES.get(str(p.get("failure")))
    why = failure(w, p) if failure else "заказ не выполнен"
    return f"Заказ не выполнен: {why}; подход окончен"


def _cue_lost(how: str) -> Template:
    def words(w: Namer, p: Mapping[str, Any]) -> str:
        w.fresh()
        hit = (
            "не коснувшись ни одного шара"
            if p.get("first_hit") is None
            else f"после касания {w.ball(p['first_hit'], 'gen')}"
        )
        return f"Штраф: {w.ball(p['cue'])} {how} {hit}: минус {_points(p['penalty'])}"

    return words


def _late(p: Mapping[str, Any]) -> str:
    return f"У игрока {p['player']} истекло время на удар ({p['count']} из {p['limit']})"


#: Why a lag was lost (K-3.1), in the few words of a lag's verdict.
_LAG_LOST = {
    "lag_pocketed": "шар в лузе",
    "lag_touched_ball": "касание шара",
    "lag_long_cushion": "длинный борт",
    "lag_crossed": "за средней линией",
    "lag_short": "не дошёл до заднего борта",
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
            return f"Розыгрыш начального удара, {player}: проигран, {why}"
        return f"Розыгрыш начального удара, {player}: {(p.get('distance') or 0.0) * 1000:.0f} мм от борта дома"

    def result(name: str, distance: float | None) -> str:
        if distance is not None:
            return f"у {name} {distance * 1000:.0f} мм"
        return f"у {name} проигрыш ({why})" if name == player and why else f"у {name} проигрыш"

    if p.get("winner"):
        (_, won), (loser, lost) = sorted(p["lags"], key=lambda lag: lag[0] != p["winner"])
        if w.cat.upright and lost is not None:
            return f"Розыгрыш за {p['winner']}: {(won or 0.0) * 1000:.0f}\u00a0мм против {lost * 1000:.0f}\u00a0мм"
        text = f"{p['winner']} выигрывает розыгрыш: {(won or 0.0) * 1000:.0f} мм, {result(loser, lost)}"
        return text if w.cat.upright else text + "; победитель выбирает, кто разбивает"
    if both_stopped(p):
        return "Разыгрываем снова: " + ", ".join(result(n, d) for n, d in p["lags"]) + ", равны с точностью до 1 мм"
    return "Разыгрываем снова: оба розыгрыша проиграны" + (f" ({player}: {why})" if why else "")


def _not_dropped(w: Namer, p: Mapping[str, Any]) -> str:
    """By how much, when the rules measured it (rules/miss.py): left and right as the ball ran."""
    miss = p.get("miss")
    ball = p["ball"]
    name = w.ball(ball)
    if not miss:
        return f"{name} не {_v(w, ball, 'упал', 'упала')} в лузу"
    hit = _v(w, ball, "ударился", "ударилась")
    if miss["at"] == "jaw":
        side = "левую" if miss["side"] == "left" else "правую"
        return f"{name} {hit} в {side} губку лузы и не {_v(w, ball, 'упал', 'упала')}"
    side = "левее" if miss["side"] == "left" else "правее"
    return f"{name} {hit} в борт в {miss['mm']} мм {side} губки лузы"


RU_FAILURES: dict[str, Template] = {
    "no_ball_hit": lambda w, p: "биток не коснулся ни одного шара",
    "wrong_first_ball": lambda w, p: (
        f"биток первым коснулся {w.ball(p['first'], 'gen')}, а не {w.ball(p['called'], 'gen')}"
    ),
    "cue_cushions": lambda w, p: (
        f"до первого шара биток отразился от {_cushions_gen(p['counted'])}, а заказано бортов: {p['called']}"
    ),
    "not_dropped": lambda w, p: _not_dropped(w, p),
    "wrong_pocket": lambda w, p: (
        f"{w.ball(p['ball'])} {_v(w, p['ball'], 'упал', 'упала')} в {w.pocket(p['pocket'], 'acc')}, "
        f"а не в {w.pocket(p['called'], 'acc')}"
    ),
    "object_cushions": lambda w, p: (
        f"{w.ball(p['ball'])} до лузы {_v(w, p['ball'], 'отразился', 'отразилась')} от "
        f"{_cushions_gen(p['counted'])}, а заказано бортов: {p['called']}"
    ),
    "unexpected_contact": lambda w, p: (
        f"{w.ball(p['ball'])} до лузы {_v(w, p['ball'], 'коснулся', 'коснулась')} {w.ball(p['other'], 'gen')} "
        "(соударение не заказывалось)"
    ),
    "kiss_missed": lambda w, p: (
        f"{w.ball(p['ball'])} не {_v(w, p['ball'], 'коснулся', 'коснулась')} {w.ball(p['via'], 'gen')}: "
        "заказанного соударения не было"
    ),
    "kiss_extra_contact": lambda w, p: (
        f"{w.ball(p['ball'])} {_v(w, p['ball'], 'коснулся', 'коснулась')} {w.ball(p['other'], 'gen')} "
        "помимо заказанного соударения"
    ),
    "combination_failed": lambda w, p: (
        f"{w.ball(p['via'])} не {_v(w, p['via'], 'направил', 'направила')} {w.ball(p['ball'], 'acc')} "
        "в лузу: комбинация не удалась"
    ),
    "combination_extra_contact": lambda w, p: (
        f"{w.ball(p['ball'])} {_v(w, p['ball'], 'коснулся', 'коснулась')} {w.ball(p['other'], 'gen')} помимо комбинации"
    ),
    "hand_cushion_in_home": lambda w, p: (
        "при игре с руки первый борт битка должен быть за линией дома, а он был в доме"
    ),
}

RU_LAGS: dict[str, Callable[[float | None], str]] = {
    "lag_pocketed": lambda d: "шар упал в лузу",
    "lag_touched_ball": lambda d: "шар коснулся другого шара",
    "lag_long_cushion": lambda d: "шар коснулся длинного борта",
    "lag_crossed": lambda d: "шар перешёл на половину соперника",
    "lag_short": lambda d: "шар не дошёл до заднего борта",
    "lag_stopped": lambda d: f"шар остановился в {(d or 0.0) * 1000:.0f} мм от борта дома",
}

RU_VERDICTS: dict[str, Template] = {
    "pot": _pot,
    "call_missed": _missed,
    "wrong_cue_ball": lambda w, p: f"Сыгран {w.ball(p['struck'])}, а не {w.ball(p['cue'])}: без очков, подход окончен",
    "replay_home_line": lambda w, p: "Биток не пересёк линию дома: удар переигрывается",
    "cue_ball_pocketed": _cue_lost("упал в лузу"),
    "cue_ball_off_table": _cue_lost("вылетел со стола"),
    "push_or_double_hit": lambda w, p: "Толчок или двойное касание: без очков, подход окончен",
    "hand_attack": lambda w, p: (
        f"С руки биток попал в {w.fresh().ball(p['ball'], 'acc')} в доме, не коснувшись сначала борта за линией "
        "дома: без очков, подход окончен"
    ),
    "object_jumped": lambda w, p: (
        f"Без очков: {w.ball(p['ball'])} {_v(w, p['ball'], 'выскочил', 'выскочила')} с сукна; подход окончен"
    ),
    "rolled_along_cushion": lambda w, p: (
        f"Без очков: {w.ball(p['ball'])} {_v(w, p['ball'], 'закатился', 'закатилась')} вдоль борта; подход окончен"
    ),
    "frozen_to_cushion": lambda w, p: (
        f"Без очков: {w.ball(p['ball'])} {_v(w, p['ball'], 'стоял', 'стояла')} вплотную к борту, а простой удар "
        "такого шара очков не приносит; подход окончен"
    ),
    "kiss_off_frozen_ball": lambda w, p: (
        f"Соударение с {w.ball(p['via'], 'ins')}, {_v(w, p['via'], 'стоящим', 'стоящей')} вплотную к борту, "
        "очков не приносит; подход окончен"
    ),
    "lag": _lag,
    "break_chosen": lambda w, p: f"{p['breaker']} разбивает; {p['placer']} ставит биток за центральной линией",
    "shootout_started": lambda w, p: f"{p['starter']} начинает серию пенальти",
    "opening_placed": lambda w, p: f"{p['player']} поставил(а) биток; {p['breaker']} разбивает из дома",
    "hand_placed": lambda w, p: f"{p['player']} поставил(а) биток в дом",
    "touch_foul": lambda w, p: (
        f"{p['player']}: касание шара, подход окончен"
        + (f", минус {_points(p['penalty'])}" if p.get("penalty") else "")
        + _won(p)
    ),
    "resigned": lambda w, p: f"{p['loser']} сдаётся{_won(p) or '. Побеждает ' + p['winner']}",
    "forfeit": lambda w, p: f"{p['loser']}: {p['reason']}{_won(p) or '. Побеждает ' + p['winner']}",
    "clock": lambda w, p: "Часы обновлены",
    "aborted": lambda w, p: RU_FINISHES[p["why"]](w, p),
    "shot_clock": lambda w, p: f"{_late(p)}: ход переходит к игроку {p['other']}",
    "shot_clock_choice": lambda w, p: f"{_late(p)}: выбирает {p['other']}",
    "shot_clock_lag": lambda w, p: f"{_late(p)}: розыгрыш проигран",
    "shot_clock_relag": lambda w, p: f"{_late(p)}: розыгрыш проигран; оба розыгрыша проиграны: разыгрываем снова",
    "shot_clock_lag_won": lambda w, p: (
        f"{_late(p)}: розыгрыш проигран; {p['other']} выигрывает розыгрыш и выбирает, кто начинает"
    ),
    "shot_clock_lost": lambda w, p: RU_FINISHES["shot_clock_lost"](w, p),
}

RU_FINISHES: dict[str, Template] = {
    "target_reached": lambda w, p: "набрано нужное число очков",
    "shootout_higher": lambda w, p: "больше очков после серии пенальти (K-11.4)",
    "sudden_death": lambda w, p: "до первого промаха (K-11.4)",
    "sudden_death_penalty": lambda w, p: "штраф в решающей серии (K-11.4)",
    "resigned": lambda w, p: f"{p['loser']} сдаётся",
    "forfeit": lambda w, p: f"{p['loser']}: {p['reason']}",
    "shot_clock_lost": lambda w, p: (
        f"у игрока {p['player']} {_n(p['count'], 'раз', 'раза', 'раз')} подряд истекло время на удар"
    ),
    "aborted_by": lambda w, p: f"прервано игроком {p['player']} до начального удара",
    "aborted_shot_clock": lambda w, p: "до начального удара не было удара в отведённое время",
    "aborted_left": lambda w, p: f"{p['player']} ушёл (ушла) до начального удара",
    "aborted_both_left": lambda w, p: "оба игрока ушли",
}

RU_REFUSALS: dict[str, Template] = {
    "game_over": lambda w, p: "партия окончена",
    "wrong_phase": lambda w, p: f"сейчас это невозможно (идёт {w.phase(p['phase'])})",
    "no_shots_now": lambda w, p: f"сейчас не бьют (идёт {w.phase(p['phase'])})",
    "not_your_turn": lambda w, p: f"сейчас ход игрока {p['player']}",
    "not_your_visit": lambda w, p: f"сейчас за вашу команду играет {p['player']}",
    "only_lag_winner_chooses": lambda w, p: "выбирает только победитель розыгрыша",
    "only_shooter_touch_foul": lambda w, p: "касание шара может засчитать себе только бьющий",
    "already_lagged": lambda w, p: f"{p['player']} уже разыграл(а) удар; ждём соперника",
    "shootout_lag_over": lambda w, p: "розыгрыш серии пенальти окончен",
    "nothing_to_choose": lambda w, p: "сейчас нечего выбирать",
    "shootout_not_started": lambda w, p: "серия пенальти ещё не началась",
    "cue_ball_in_hand": lambda w, p: "сначала поставьте свой биток в дом",
    "not_in_hand": lambda w, p: "ваш биток не в руке",
    "only_own_cue_ball": lambda w, p: "ставить можно только свой биток",
    "own_cue_ball": lambda w, p: "это ваш собственный биток: закажите другой шар",
    "own_cue_ball_via": lambda w, p: "свой биток нельзя заказывать для соударения",
    "ball_not_on_table": lambda w, p: f"{w.ball(p['ball'])}: этого шара нет на столе",
    "shootout_call": lambda w, p: "в серии пенальти заказывается только кайза в угловую лузу (K-11.2)",
    "opening_call": lambda w, p: (
        "начальным ударом заказывается кайза или красный шар на задней отметке в дальнюю угловую лузу (K-3.4)"
    ),
    "hand_middle_bank": lambda w, p: "с руки в среднюю лузу можно заказывать только от борта (K-7.2)",
    "hand_home_ball": lambda w, p: (
        f"с руки {w.ball(p['ball'], 'acc')} в доме можно атаковать только от борта за линией дома (K-7.2)"
    ),
    "middle_kaisa_twice": lambda w, p: "кайзу нельзя забивать прямым ударом в среднюю лузу дважды подряд (K-6.4)",
    "strike_speed": lambda w, p: f"скорость кия должна быть больше 0 и не больше {p['max_speed']:g} м/с",
    "miscue": lambda w, p: f"кикс: наклейка может бить не дальше {p['max_tip_offset']:g} радиуса от центра шара",
    "place_beyond_centre": lambda w, p: "биток нужно поставить за центральной линией",
    "place_corridor": lambda w, p: (
        f"шар перекрыл бы путь кайзы от центральной отметки в {w.pocket(p['pocket'], 'acc')}"
    ),
    "place_in_home": lambda w, p: "шар с руки ставится в дом (до линии дома)",
    "place_on_cloth": lambda w, p: "шар должен целиком лежать на сукне",
    "place_overlapping": lambda w, p: f"шары наложились бы друг на друга: {w.ball(p['ball'])} и {w.ball(p['other'])}",
    "place_touching": lambda w, p: f"шар касался бы {w.ball(p['ball'], 'gen')}",
}


def _duration(seconds: float) -> str:
    if seconds >= 60:
        return _n(round(seconds / 60), "минута", "минуты", "минут")
    return _n(max(1, round(seconds)), "секунда", "секунды", "секунд")


def _visits(count: int) -> str:
    return _n(count, "подход", "подхода", "подходов")


def _score(points: int) -> str:
    return f"−{-points}" if points < 0 else str(points)


def _choice(w: Namer, p: Mapping[str, Any]) -> str:
    if p.get("shootout"):
        verb = "начинает серию пенальти" if p.get("take") else "уступает сопернику начало серии пенальти"
    else:
        verb = "разбивает сам(а)" if p.get("take") else "уступает начальный удар"
    return f"{p['player']} {verb}"


def _result_won(w: Namer, p: Mapping[str, Any]) -> str:
    how, loser = p["how"], p["loser"]
    words = {
        "target": f"набрано {p['target']}",
        "resign": f"{loser} сдаётся",
        "shot_clock": f"у игрока {loser} 3 раза подряд истекло время на удар",
        "abandoned": f"{loser} покинул(а) партию",
        "time_limit": "после окончания времени",
        "shootout": "в серии пенальти",
    }.get(how, str(how))
    return f"{p['winner']} выигрывает: {words}"


RU_TEXTS: dict[str, Template] = {
    "choice": _choice,
    "time_warning": lambda w, p: f"Лимит времени: осталось {_duration(p['seconds'])}",
    "time_up": lambda w, p: (
        f"Время вышло: этот круг доигрывается, затем каждому игроку ещё {_visits(p['extra_each'])} (K-11.1)"
        if p["extra_each"]
        else "Время вышло: этот круг доигрывается, затем серия пенальти (K-11.1, K-11.2)"
    ),
    "extra_visits": lambda w, p: (
        f"Дополнительные подходы: по {_visits(p['extra_each'])}, последним играет {p['last']} (K-11.1)"
    ),
    "shootout": lambda w, p: (
        "Серия пенальти: на столе остаётся только кайза; новый розыгрыш решает, кто начинает; не больше "
        f"{_visits(p['visits'])} каждому (K-11.2)"
    ),
    "sudden_death": lambda w, p: (
        f"До первого штрафа: поровну после {_visits(p['visits'])}; первый штраф проигрывает (K-11.4)"
    ),
    "result_won": _result_won,
    "result_aborted": lambda w, p: "Партия прервана",
}

RUSSIAN = Catalogue(
    kaisa={"nom": "кайза", "acc": "кайзу", "gen": "кайзы", "dat": "кайзе", "ins": "кайзой", "pre": "кайзе"},
    a_red={
        "nom": "красный шар",
        "acc": "красный шар",
        "gen": "красного шара",
        "dat": "красному шару",
        "ins": "красным шаром",
        "pre": "красном шаре",
    },
    the_red={
        "nom": "красный шар",
        "acc": "красный шар",
        "gen": "красного шара",
        "dat": "красному шару",
        "ins": "красным шаром",
        "pre": "красном шаре",
    },
    other_red={
        "nom": "другой красный",
        "acc": "другой красный",
        "gen": "другого красного",
        "dat": "другому красному",
        "ins": "другим красным",
        "pre": "другом красном",
    },
    both_reds={"nom": "оба красных", "acc": "оба красных", "gen": "обоих красных", "dat": "обоим красным"},
    owned_cue={
        "nom": "биток игрока {owner}",
        "acc": "биток игрока {owner}",
        "gen": "битка игрока {owner}",
        "dat": "битку игрока {owner}",
        "ins": "битком игрока {owner}",
        "pre": "битке игрока {owner}",
    },
    the_cue={"nom": "биток", "acc": "биток", "gen": "битка", "dat": "битку", "ins": "битком", "pre": "битке"},
    opponent_cue={
        "nom": "биток соперника",
        "acc": "биток соперника",
        "gen": "битка соперника",
        "dat": "битку соперника",
        "ins": "битком соперника",
    },
    unknown_ball={"nom": "шар", "acc": "шар", "gen": "шара", "dat": "шару", "ins": "шаром"},
    unknown_pocket={"nom": "луза", "acc": "лузу", "gen": "лузы"},
    unknown_phase="эта фаза",
    pockets={
        "home_right": {"nom": "нижняя левая луза", "acc": "нижнюю левую лузу", "gen": "нижней левой лузы"},
        "home_left": {"nom": "верхняя левая луза", "acc": "верхнюю левую лузу", "gen": "верхней левой лузы"},
        "middle_right": {"nom": "нижняя средняя луза", "acc": "нижнюю среднюю лузу", "gen": "нижней средней лузы"},
        "middle_left": {"nom": "верхняя средняя луза", "acc": "верхнюю среднюю лузу", "gen": "верхней средней лузы"},
        "foot_right": {"nom": "нижняя правая луза", "acc": "нижнюю правую лузу", "gen": "нижней правой лузы"},
        "foot_left": {"nom": "верхняя правая луза", "acc": "верхнюю правую лузу", "gen": "верхней правой лузы"},
    },
    side_pockets={
        "middle_left": {"nom": "левая средняя луза", "acc": "левую среднюю лузу", "gen": "левой средней лузы"},
        "middle_right": {"nom": "правая средняя луза", "acc": "правую среднюю лузу", "gen": "правой средней лузы"},
    },
    phases={
        "lag": "розыгрыш начального удара",
        "choose_break": "выбор начального удара",
        "opening_placement": "установка битка перед начальным ударом",
        "play": "игра",
        "extra_visits": "дополнительные подходы",
        "shootout": "серия пенальти",
        "finished": "партия окончена",
    },
    verdicts=RU_VERDICTS,
    failures=RU_FAILURES,
    lags=RU_LAGS,
    refusals=RU_REFUSALS,
    finishes=RU_FINISHES,
    texts=RU_TEXTS,
    and_word="и",
)
