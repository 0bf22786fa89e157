"""The engine's and the photo reader's stable codes in words, 中文 and English.

Keyed by what the data already carries, never by English text: rule options by their dotted key
(``scoring.options.option_keys``) and ``key=value`` for their choices, not-a-win reasons and input errors by
``ScoreResult.reason`` / ``HandError.code``, score warnings by ``ScoreResult.warning_codes``, photo warnings by
``vision.normalize.ReadWarning.code``, breakdown items by ``ScoreItem.name``, meld types and win shapes by their
codes (the app's pages and `mjsnap score --lang` show them).

The engine's own ``error`` / ``message`` / ``reason`` sentences are English and name the very tiles and seats, so in
English ``explain`` shows them as they are; in Chinese it shows the catalogue's sentence for the code.
tests/test_i18n_catalogue.py fails when a code or an option has no text in either language.
"""

from __future__ import annotations

import re

Pair = tuple[str, str]  # (zh, en)

OPTION_LABELS: dict[str, Pair] = {
    "shaanxi.base_points": ("底分 D", "Base points D"),
    "shaanxi.variant": ("[A1/A2] 牌数：136 张或 108 张", "[A1/A2] Tile set: 136 or 108 tiles"),
    "shaanxi.discard_payer": ("[A3] 放胡时谁付胡牌分", "[A3] Who pays the win on a discard"),
    "shaanxi.paozi_discard_payer": ("[A3] 放胡时谁付炮子", "[A3] Who pays the bets (炮子) on a discard"),
    "shaanxi.kong_on_draw": ("[A4] 荒庄时杠分", "[A4] Kongs in a drawn hand (荒庄)"),
    "shaanxi.dealer_doubling": ("[A5] 庄家翻倍的范围", "[A5] What the dealer doubling covers"),
    "shaanxi.max_bet": ("[A6] 炮子最多几个", "[A6] Most bets (炮子) a player may set"),
    "xian.base_points": ("基数 B", "Base amount B"),
    "xian.heavenly": ("[A7] 天胡“赢三倍”", "[A7] Heavenly hand “wins three times”"),
    "xian.discard_payer": ("[A8] 点炮时谁付胡牌和注", "[A8] Who pays win and bets on a discard"),
    "xian.kong_payer": ("[A9] 明杠（别人打出的牌）谁付", "[A9] Who pays a kong made on a discard"),
    "xian.unique_wait_required": ("[A10] 夹张/单调只算独听", "[A10] Closed/single wait only when it is the only wait"),
    "xian.multiply_bets_and_kongs": (
        "[A11] 杠后开花×2、天胡×3 也乘注和杠", "[A11] The ×2 / ×3 multipliers also apply to bets and kongs"
    ),
    "weinan.point_value": ("每番几分（底分）", "Points per 番"),
    "weinan.plain_robbing_kong": ("[A12] 1 番的牌可以抢杠", "[A12] A 1番 hand may rob a kong"),
    "weinan.extra_root": ("[A13] 双根/三根加 2：每多一根或只加一次", "[A13] Extra roots: +2 per root or +2 once"),
    "weinan.multi_win_three": ("[A14] 一炮三响时谁付", "[A14] Three winners on one discard: who pays"),
    "weinan.after_kong_discard_kong": ("[A15] 杠后点胡：赢家付不付那个杠", "[A15] Win after a kong: does the winner pay it"),
    "weinan.table_overrides": ("番数表的特别值（JSON）", "Fan table exceptions (JSON)"),
    "guiyang.lianzhuang": ("连庄次数", "Times the dealer kept the deal"),
    "guiyang.chicken_mode": ("手上鸡 / 内外鸡", "Chickens in hand only, or discarded too"),
    "guiyang.honours_house_rule": ("加字牌（种子没有，家规）", "Add honours (house rule, not in the seed)"),
}

OPTION_VALUES: dict[str, Pair] = {
    "shaanxi.variant=136": ("136 张（有字牌和特殊牌型）", "136 tiles (honours, special shapes)"),
    "shaanxi.variant=108": ("108 张（只有万筒条，只算平胡）", "108 tiles (suits only, plain hands only)"),
    "shaanxi.discard_payer=all": ("三家都付（正式条文）", "all three (the formal text)"),
    "shaanxi.discard_payer=discarder": ("点炮的一家付", "the discarder alone"),
    "shaanxi.paozi_discard_payer=all": ("三家都算（正式条文）", "with all three (the formal text)"),
    "shaanxi.paozi_discard_payer=discarder": ("只和点炮的一家算", "with the discarder alone"),
    "shaanxi.kong_on_draw=keep": ("杠分照算（立刻收取）", "kongs stand (paid at once)"),
    "shaanxi.kong_on_draw=void": ("杠分作废", "kongs are voided"),
    "shaanxi.dealer_doubling=hu_only": ("只翻胡牌分", "the win score only"),
    "shaanxi.dealer_doubling=everything": ("所有得失都翻倍", "every payment"),
    "xian.heavenly=x3_self_draw": ("自摸的三倍（每家 6 基数）", "3 × the self-draw (6 B each)"),
    "xian.heavenly=flat_3": ("每家 3 基数", "a flat 3 B each"),
    "xian.discard_payer=discarder": ("点炮的一家付", "the discarder alone"),
    "xian.discard_payer=all": ("三家都付", "all three"),
    "xian.kong_payer=each_other": ("其他三家各付", "each other player"),
    "xian.kong_payer=feeder": ("打出那张牌的一家付", "the player who fed it"),
    "xian.unique_wait_required=true": ("是", "yes"),
    "xian.unique_wait_required=false": ("否", "no"),
    "xian.multiply_bets_and_kongs=true": ("是", "yes"),
    "xian.multiply_bets_and_kongs=false": ("否", "no"),
    "weinan.plain_robbing_kong=true": ("可以", "yes"),
    "weinan.plain_robbing_kong=false": ("不可以（抢杠当点炮）", "no (robbing counts as a discard)"),
    "weinan.extra_root=per_root": ("每多一根加 2", "+2 per extra root"),
    "weinan.extra_root=once": ("只加一次 2", "+2 once"),
    "weinan.multi_win_three=winners_pay_discarder": (
        "三家输给点炮的（种子原文）", "the three winners pay the discarder (the seed)"
    ),
    "weinan.multi_win_three=discarder_pays": ("点炮的付三家（常见）", "the discarder pays each (the usual way)"),
    "weinan.after_kong_discard_kong=winner_exempt": ("赢家不付（对胡牌的玩家来说杠不算）", "the winner does not pay"),
    "weinan.after_kong_discard_kong=all_pay": ("照常都付", "everyone pays as usual"),
    "guiyang.chicken_mode=shou_shang": ("手上鸡", "chickens in hand"),
    "guiyang.chicken_mode=nei_wai": ("内外鸡", "chickens in hand and discarded"),
    "guiyang.honours_house_rule=true": ("加字牌", "with honours"),
    "guiyang.honours_house_rule=false": ("不加字牌", "without honours"),
}

# ScoreResult.reason / HandError.code (not a win, not allowed, input errors), ScoreResult.warning_codes and
# vision.normalize ReadWarning.code: one vocabulary, as the reader and the scorer share some codes.
CODES: dict[str, Pair] = {
    # not a win, or not allowed under the rule set
    "not_a_winning_shape": ("这些牌不成胡牌牌型（这个规则允许的）", "the tiles form no win shape this rule set allows"),
    "shape_not_allowed": ("108 张玩法只算平胡：七对、十三幺、全不靠、组合龙不算", "the 108-tile game counts plain hands only"),
    "honor_tiles_not_in_set": ("这个规则不用字牌，手里却有字牌", "this rule set has no honour tiles, the hand holds some"),
    "holds_declared_missing_suit": ("手里有定缺的那一门", "the hand holds the suit declared missing (定缺)"),
    "not_missing_a_suit": ("渭南要缺一门，这手牌三门都有", "Weinan needs a missing suit; the hand holds all three"),
    "one_fan_cannot_win_on_discard": ("1 番的牌不能接炮（也不能抢杠）", "a 1番 hand cannot win on a discard or rob a kong"),
    "chow_not_allowed": ("这个规则不能吃", "this rule set has no chows"),
    "bet_out_of_range": ("炮子超过了上限", "a bet (炮子) is above the limit"),
    "heavenly_not_dealer": ("天胡只能是庄家", "a heavenly hand is the dealer's win"),
    "earthly_not_on_dealer_discard": ("地胡是闲家胡庄家打出的第一张牌", "an earthly hand is a non-dealer winning on the "
                                      "dealer's first discard"),
    "kong_replacement_without_kong": ("杠上花需要赢家有杠", "a kong-replacement win needs a kong among the melds"),
    "kong_feeder_missing": ("明杠要说明是谁打出的那张牌", "an exposed kong needs the seat that fed it"),
    "not_in_seed": ("种子规则没有给出这部分的分数", "the seed gives no values for this"),
    # input errors
    "invalid_hand": ("这手牌不能算分", "the hand cannot be scored as given"),
    "invalid_tiles": ("牌不对：不是麻将牌，或一种牌超过 4 张", "not valid tiles, or more than four of one kind"),
    "wrong_tile_count": ("牌数不对：应该是 14 张，每个杠多一张", "wrong number of tiles: 14, plus one per kong"),
    "bad_meld": ("有一组副露不成吃、碰或杠", "a meld is no chow, pung or kong"),
    "bad_seat": ("座位不对（0-3，点炮的不能是赢家）", "a seat is not valid (0-3; the discarder is not the winner)"),
    "bad_bets": ("炮子 / 注不对：每家一个，从 0 起的整数", "bets: one whole number from 0 per seat"),
    "bad_context": ("这一局的情况自相矛盾", "the hand's situation contradicts itself"),
    "bad_case": ("输入的格式不对", "the input case is malformed"),
    "missing_win_tile": ("没有赢牌：请给出最后那张牌", "no winning tile: give the tile that completes the hand"),
    "unknown_ruleset": ("没有这个规则", "unknown rule set"),
    "face_down_in_hand": ("手牌里有一张是牌背：点它选正确的牌，或移出手牌", "a tile in the hand is face down: pick its face "
                          "or set it aside"),
    "face_down_in_meld": ("只有暗杠能有牌背：改副露类型，或点牌背选正确的牌", "only a concealed kong shows backs: change the "
                          "meld's type or pick the tile's face"),
    "kong_kind_unknown": ("有一个暗杠四张都是牌背：点一张选它是什么牌", "a concealed kong shows four backs: tap one and "
                          "pick its face"),
    # the ledger's refusals (mjsnap.app.ledger.LedgerError.code)
    "points_not_balanced": ("一局的得分加起来要等于 0", "the points of a hand must add up to 0"),
    "winner_twice": ("同一个座位一局只能胡一次", "a seat can win a hand only once"),
    "drawn_hand_with_win": ("荒庄没有自摸也没有点炮", "a drawn hand has no self-draw and no discarder"),
    "multi_win_not_weinan": ("一炮多响是渭南的规则；陕西、西安只有离点炮最近的一家胡（截和）",
                             "several winners on one discard are a Weinan rule; elsewhere the nearest seat wins (截和)"),
    "multi_win_not_on_discard": ("一炮多响的几家都要胡同一张点炮的牌：请选点炮的人",
                                 "several winners must all win on one discard: name the discarder"),
    "cannot_share_discard": ("一炮多响只算渭南胡点炮的牌", "several winners on one discard are Weinan wins on a discard"),
    "multi_win_mismatch": ("一炮多响的几家要用同一个规则、同一个点炮的和同一个庄家",
                           "the winners of one discard share the rule set, the discarder and the dealer"),
    "too_many_winners": ("一张牌最多三家胡", "at most three players can win on one discard"),
    "multi_win_not_valid": ("一炮多响的每一家都要是胡牌", "every win of a multiple win must be a valid win"),
    "no_win_to_record": ("没有可以记入的胡牌", "there is no win to record"),
    "bad_ledger_value": ("有一项不在允许的范围里（座位 0-3，每家一个得分）", "a value is out of its range (seats 0-3, "
                         "one number of points per seat)"),
    "player_name_missing": ("每个座位都要有玩家名字", "every seat needs a player name"),
    "player_names_same": ("玩家名字不能重复", "player names must differ"),
    "not_a_ledger_csv": ("这不是记分表导出的 CSV（缺少列）", "not a ledger CSV: columns are missing"),
    "csv_not_utf8": ("文件不是 UTF-8 文本", "the file is not UTF-8 text"),
    "players_differ": ("这一行的玩家名字和第一行不一样", "the player names differ from the first row's"),
    "not_a_whole_number": ("应该是整数的地方写了别的", "a whole number was expected"),
    "bad_self_draw": ("自摸一栏只能是 0 或 1", "self_draw is 0 or 1"),
    "hand_out_of_order": ("局数不连续（应该从 1 起一局一行）", "hand numbers must run 1, 2, 3... one per row"),
    # the app's rule options (mjsnap.app.context_form)
    "option_not_json": ("这个选项要写成 JSON，如 {\"大对子+天胡\": 9}", "the option is not valid JSON, "
                        "e.g. {\"大对子+天胡\": 9}"),
    "option_bad_value": ("选项的值不对（番数表的特别值：牌型名 → 整数）", "an option has a value it cannot take"),
    # a label not saved or not read (mjsnap.labels.LabelError.code; the label page's table rows)
    "bad_label_name": ("标注名不合规：只能用字母、数字、_ . -（不以 . 开头，不含 ..）",
                       "the label name may hold letters, digits, '_', '.', '-' only (no leading dot, no '..')"),
    "bad_class_id": ("牌的类别编号不对", "the tile class id is not one of the classes"),
    "no_tile_class": ("请为这个框选择牌", "choose a tile for the box"),
    "bad_box_numbers": ("框要有四个数：x1 y1 x2 y2", "a box needs four numbers x1 y1 x2 y2"),
    "box_without_area": ("框没有面积：x2 要大于 x1，y2 要大于 y1", "the box has no area: x2 must exceed x1, y2 "
                         "exceed y1"),
    "box_outside_image": ("框在照片外面", "the box lies outside the photo"),
    "image_without_pixels": ("照片没有像素", "the photo has no pixels"),
    "bad_label_line": ("标注文件有一行格式不对（应为：类别 x y 宽 高）", "a label line is not 'class xc yc w h'"),
    "other_class_names": ("这个数据集文件夹用的是别的牌类别：请换一个文件夹保存",
                          "the dataset folder lists other classes: save into another folder"),
    "bad_split": ("没有这个数据集分组（训练集、验证集、待复核）", "the split is not train, val or review"),
    "outside_dataset": ("路径指向数据集文件夹以外（符号链接？）：没有保存", "the path leads outside the dataset folder"),
    "labelled_twice": ("同一张照片在训练集和验证集里都有标注：请先修复", "a photo is labelled in both train and val: "
                       "run repair"),
    "label_without_image": ("有标注没有对应的照片", "a label has no image"),
    "name_taken": ("数据集里已有另一张同名照片：没有覆盖它。请给这张照片改个名，或换一个数据集文件夹",
                   "another photo is saved under this name: it was not replaced; rename this photo or use another "
                   "dataset folder"),
    "saved_meanwhile": ("打开这张照片以后，别人（另一个页面）又保存了它的框：没有覆盖。再按一次即用这里的框替换",
                        "the photo was saved from another session after its boxes here were loaded: not replaced; "
                        "save again to replace them"),
    "not_a_dataset": ("这不是数据集文件夹（没有 data.yaml）", "the folder is not a dataset (no data.yaml)"),
    "label_file_error": ("标注文件读写失败（权限、磁盘空间或文件损坏）", "a label file could not be read or written"),
    # the scorer's warnings: accepted, but worth a look
    "chow_in_108": ("108 张玩法不能吃，这手牌有吃（照算）", "an exposed chow in the 108-tile game, where 吃 is not "
                    "allowed (accepted)"),
    "chow_in_weinan": ("渭南不能吃，这手牌有吃（照算）", "an exposed chow in Weinan, where 吃 is not allowed (accepted)"),
    "self_draw_implied": ("天胡和杠上花都是自摸：“不是自摸”已忽略，按自摸计算", "天胡 and 杠上花 are self-drawn wins: "
                          "self_draw false was ignored"),
    "no_fan_for_pattern": ("种子没有给这种牌的番数：不计算分数", "the seed gives no 番 for this hand: no amount"),
    "discard_not_told_apart": ("种子不分点炮和自摸：其他三家都付", "the seed does not tell a discard from a self-draw: "
                               "every other player pays"),
    "kongs_not_scored": ("种子没有给杠（豆）的分数：不计", "kongs (豆) are not scored: the seed gives no values"),
    "situations_ignored": ("种子没有给这些情况的分数：不计", "ignored: the seed gives no value for these situations"),
    # a photo that cannot be scored at all (mjsnap.pipeline; docs/score-json.md)
    "unreadable_image": ("照片读不出来：不是图片，或文件已损坏", "the photo cannot be read: not an image, or damaged"),
    "model_not_found": ("没有找到识别模型", "no recognition model was found"),
    # the photo reader's warnings (docs/photo-layout.md)
    "no_tiles": ("照片里没有找到牌", "no tiles were found in the photo"),
    "low_confidence": ("有些牌认得没把握（红框）：请核对", "some tiles were read with low confidence (red): check them"),
    "dropped_low_confidence": ("把握太低的框已忽略", "boxes below the confidence threshold were ignored"),
    "too_many_copies": ("某种牌认出了超过 4 张", "more than four of one kind were read"),
    "reread_to_win": ("按认出的牌不成胡：已把几张牌改认成识别器的下一个选择，改后成胡，请核对",
                      "the hand as read did not win: a few tiles were re-read as the classifier's next choice, which "
                      "makes it win; check them"),
    "meld_reread": ("有一组牌按认出的不成吃、碰或杠：已把其中一两张改认成识别器的下一个选择，改后成组，请核对",
                    "a group was no meld as read: one or two of its tiles were re-read as the classifier's next "
                    "choice, which makes it one; check them"),
    "not_a_meld": ("有一组牌不成吃、碰或杠", "a group is no chow, pung or kong"),
    "face_down_outside_kong": ("杠以外的牌背不算", "face-down tiles outside a kong are not counted"),
    "kong_face_down_count": ("杠的牌背数不对（暗杠两张牌背）", "a kong shows an odd number of backs"),
    "kong_type_assumed": ("照片看不出是明杠还是补杠：已按默认，请确认", "the photo cannot show the kong's type: the "
                          "default was used, check it"),
    "unused_kong_kinds": ("指定的暗杠牌没有对应的四张牌背", "named concealed-kong kinds found no kong of four backs"),
    "meld_type_rejected": ("指定的副露类型不适合这组牌", "a meld type given for a group does not fit it"),
    "win_tile_not_set_apart": ("没有单独放开的赢牌：把手牌最右边一张当赢牌", "no tile set apart: the right-most "
                               "concealed tile was taken as the winning tile"),
    "no_win_tile": ("没找到赢牌：把它放在手牌右边隔开一点", "no winning tile: set it apart at the right end of the row"),
    "win_tile_not_found": ("指定的赢牌不在手牌里：已按牌的摆放取了赢牌，请核对", "the named winning tile is not among the "
                           "concealed tiles: the winning tile was taken from the layout, check it"),
    "tile_off_row": ("有一张牌偏出了手牌那一行（已算进手牌）", "a tile lies off the concealed row (counted in it)"),
    "not_in_hand": ("有牌在手牌旁边，但哪里都放不进去：已忽略", "tiles near the hand fit nowhere in it: ignored"),
    "far_from_hand": ("离手牌远的牌（可能是打出的牌）已忽略", "tiles away from the hand (discards?) were ignored"),
    "wall_ignored": ("叠放的牌背（牌墙）已忽略", "face-down tiles lying on each other (the wall) were ignored"),
    "duplicate_removed": ("同一张牌上的重复框已忽略", "duplicate boxes on one tile were ignored"),
    "flower_ignored": ("花牌在这些规则里不算", "flower tiles do not count in these rules"),
}

ITEM_NOTES: dict[str, Pair] = {
    # Shaanxi
    "hu": ("放胡每家 1 底分（或只点炮的一家），自摸每家 2 底分；庄家翻倍", "放胡 1·D, 自摸 2·D per payer; 庄家翻倍"),
    "paozi": ("炮子：(输家炮子 + 赢家炮子) × 倍数 × 底分", "bets: (loser's + winner's 炮子) × A × D per payer"),
    "kong": ("赢家自己的杠：暗杠、放杠、明杠的分", "the winner's own kongs"),
    # Xi'an
    "discard": ("点炮胡 1 基数", "win on a discard: 1 B"),
    "self_draw": ("自摸每家 2 基数", "self-draw: 2 B from each"),
    "jiazhang_or_dandiao": ("夹张或单调：基数加 1", "closed or single wait: base + 1"),
    "gang_hou_kai_hua_x2": ("杠后开花：翻二倍", "win on a kong replacement: × 2"),
    "tianhu_self_draw_x3": ("天胡赢三倍：自摸的三倍", "heavenly hand: 3 × the self-draw"),
    "tianhu_flat_3": ("天胡：每家 3 基数", "heavenly hand: a flat 3 B each"),
    # Weinan
    "大对子": ("每组都是刻子或杠", "every set is a pung or kong"),
    "金钩钓": ("四组副露，单钓最后一张", "four melds down, won on the single tile left"),
    "七小对": ("七个不同的对子", "seven distinct pairs"),
    "豪华七小对": ("七小对里有四张一样的牌", "seven pairs holding four of a kind"),
    "根": ("手里四张一样的牌没有开杠", "four of a kind held without a kong"),
    "extra根": ("多出的根", "extra roots"),
    "清一": ("全是一门花色", "every tile is of one suit"),
    "杠上花": ("开杠补牌自摸", "self-draw on the kong replacement tile"),
    "天胡": ("庄家起手就胡", "the dealer complete after the deal"),
    "地胡": ("胡庄家打出的第一张牌", "won on the dealer's first discard"),
    "海底捞": ("自摸最后一张牌", "self-drew the last tile"),
    "杠后点胡": ("胡别人开杠后打出的牌", "won on the discard right after the discarder's kong"),
    "自摸": ("自摸，没有别的番（算 1 番）", "self-draw with no other item (1番)"),
    "平胡": ("没有番的牌（1 番）", "no item: a 1番 hand"),
    # 贵阳捉鸡 (partial)
    "连庄": ("庄家连庄，每次加 1 番", "the dealer kept the deal: +1 each time"),
    "清一色": ("全是一门花色（10 番）", "one suit (10番)"),
    "混一色": ("一门花色加字牌（5 番）", "one suit with honours (5番)"),
}

# what a partial rule set says of every result (ScoreResult.partial), by rule set
PARTIAL_NOTES: dict[str, Pair] = {
    "guiyang": ("部分规则：种子没有给鸡的分值，也没有给付款方式", "partial: the seed does not give chicken values or "
                "payments"),
}

# 安乡偎麻雀 (scoring.weimaque) has its own vocabulary: WeimaqueInputError.code, the not-a-win ``reason`` and
# ``warning_codes`` (some names, e.g. too_many_copies, mean something else there than in CODES).
# 偎麻雀 has no payment rule (scoring.weimaque.result.NO_SETTLEMENT): the app and `mjsnap weimaque` say so
WEIMAQUE_SETTLEMENT: Pair = ("原文没有息的结算规则：不计算输赢。", "The seed gives no rule for paying 息: no settlement.")

WEIMAQUE_CODES: dict[str, Pair] = {
    # the hand as typed or picked
    "empty_hand": ("没有牌：摆出 6 句和麻雀", "the hand is empty: give six 句 and the 麻雀"),
    "several_winning_cards": ("只能有一张牌标 * 作为揭牌", "mark one card only with * as the winning card"),
    "too_many_copies": ("一种牌最多 4 张", "the deck has only four of each card"),
    "bad_token": ("有一处不是牌（牌写作 1-10 或 一…十，大字 1B-10B 或 壹…拾）", "something is not a card (cards are "
                  "1-10 or 一..十, big ones 1B-10B or 壹..拾)"),
    "missing_type": ("每一句要先写类型（碰、煨、砍、吃、雀）", "each group starts with its type (碰 煨 砍 吃 雀)"),
    "empty_group": ("有一句没有牌", "a group has no cards"),
    # not a win
    "wrong_set_count": ("胡牌要 6 句加 1 个麻雀", "a win needs six 句 and one 麻雀"),
    "bad_set": ("有一句不成句（碰、煨、砍是三张一样的牌；吃是同一大小写的三张连牌；麻雀是两张一样的牌）",
                "a group is not a valid 句 or 麻雀"),
    "set_form_not_allowed": ("二七十或大小绞牌在当前的规则选择下不算一句", "二七十 or a mixed 句 is not a 句 under the "
                             "chosen switches"),
    "hard_xi_below_10": ("硬息不到 10，不能胡", "硬息 below 10: no win"),
    # warnings
    "no_winning_card": ("没有指定揭牌：单吊和背靠背没有检查", "no winning card given: 单吊 and 背靠背 were not checked"),
    "shou_qian_shou_not_scored": ("手牵手原文暂不明：不计（可在规则选择里设自定息数）", "手牵手 is left open by the seed: "
                                  "not scored (set a house value under the switches)"),
    "no_zhuo_item": ("这几个团圆原文没有对应的卓：不计", "the seed names no 卓 item for these 团圆: none scored"),
}

WEIMAQUE_ITEM_NOTES: dict[str, Pair] = {
    # 硬息
    "碰": ("碰出的三张", "claimed triplet"),
    "煨": ("自己摸齐的三张", "self-revealed triplet"),
    "砍": ("起手就有的三张（等同于煨）", "dealt triplet (counts as 煨)"),
    "团圆": ("四张一样的牌都在手里", "all four copies"),
    "麻雀": ("红的麻雀", "red pair"),
    "转弯": ("麻雀的牌在另一句里也有", "pair card also in another set"),
    # 名堂
    "对子胡": ("每句都是碰、煨或砍：总息 = 6 × 硬息", "all triplets: 总息 = 6 × 硬息"),
    "乌对": ("对子胡且没有红牌：总息 = 8 × 硬息", "all triplets, no red card: 总息 = 8 × 硬息"),
    "乌胡": ("没有红牌：总息 = 4 × 硬息", "no red card: 总息 = 4 × 硬息"),
    "点胡": ("只有一张红牌：总息 = 3 × 硬息", "exactly one red card: 总息 = 3 × 硬息"),
    "多红": ("红牌 10 张起：第 10 张 10 息，以后每张再加 10", "10 or more red cards: 10 for the 10th, 10 more each"),
    "满园花": ("每句和麻雀都有红牌", "red in every set"),
    "印胡": ("红的团圆，每口印 10 息", "seal (red 团圆), 10 each"),
    "纯印": ("红牌只有红团圆的印：每口印 100 息（不再算印胡）", "pure seal: only the red 团圆 are red, 100 each"),
    "卓胡": ("两个不相连的团圆", "two 团圆"),
    "姊妹卓": ("两个相连的团圆", "two consecutive 团圆"),
    "三乱卓": ("三个不相连的团圆", "three scattered 团圆"),
    "姊妹卓带拖": ("两个相连的团圆再加一个", "two consecutive 团圆 and one more"),
    "祖孙卓": ("三个相连的团圆", "three consecutive 团圆"),
    "祖孙卓带拖": ("三个相连的团圆再加一个", "three consecutive 团圆 and one more"),
    "八碰头": ("八和捌都是团圆", "八 and 捌 both 团圆"),
    "假八碰头": ("同一个数的大小字都是团圆（不是八）", "one number 团圆 in both cases (not 8)"),
    "大字胡": ("全是大字", "all big cards"),
    "小字胡": ("全是小字", "all small cards"),
    "海底胡": ("最后一张牌胡", "won on the last card"),
    "单吊": ("揭的牌凑成麻雀", "won on the pair"),
    "背靠背": ("同一个数大小字两头等，胡其中一张", "two-way wait on one number, big and small"),
    "手牵手": ("家规，原文暂不明（自定息数）", "hand in hand (house value)"),
}

# the meld types (scoring.hand.MeldType) and win shapes (scoring.shapes.ALL_SHAPES) of a hand and its score
MELD_NAMES: dict[str, Pair] = {
    "chow": ("吃", "chow"),
    "pung": ("碰", "pung"),
    "kong_exposed": ("明杠", "exposed kong"),
    "kong_added": ("补杠 / 续杠", "added kong"),
    "kong_concealed": ("暗杠", "concealed kong"),
}

SHAPE_NAMES: dict[str, Pair] = {
    "plain": ("平胡", "plain (4 sets + pair)"),
    "seven_pairs": ("七对", "seven pairs"),
    "thirteen_orphans": ("十三幺", "thirteen orphans"),
    "honors_and_knitted": ("全不靠", "honors and knitted"),
    "greater_honors_and_knitted": ("七星不靠", "greater honors and knitted"),
    "knitted_straight": ("组合龙", "knitted straight"),
    "knitted_straight_in_hk": ("组合龙（全不靠中）", "knitted straight (in honors and knitted)"),
}

_DECISION_OPTION = re.compile(r"\b([a-z]+\.[a-z_]+)(?:\[[^\]]*\])?=(\S+)")


def pick(pair: Pair, lang: str) -> str:
    """One side of a (zh, en) pair."""
    return pair[1] if lang == "en" else pair[0]


def meld_name(meld_type: str, lang: str) -> str:
    return pick(MELD_NAMES[meld_type], lang)


def shape_name(shape: str, lang: str) -> str:
    return pick(SHAPE_NAMES[shape], lang)


def option_label(key: str, lang: str) -> str:
    return pick(OPTION_LABELS[key], lang)


def option_value(key: str, value: object, lang: str) -> str:
    """A choice of an option in words (``true``/``false`` as the decisions write them); numbers stay numbers."""
    text = str(value).lower() if isinstance(value, bool) else str(value)
    pair = OPTION_VALUES.get(f"{key}={text}")
    return pick(pair, lang) if pair else text


def explain(code: str | None, lang: str, detail: str | None = None, codes: dict[str, Pair] = CODES) -> str:
    """A reason or warning for people: the engine's own sentence in English, the catalogue's in Chinese
    (``codes``: CODES, or WEIMAQUE_CODES for 偎麻雀)."""
    if lang == "en" and detail:
        return detail
    if code in codes:
        return pick(codes[code], lang)
    return detail or code or "?"


def item_note(name: str, lang: str, reason: str) -> str:
    """Why a breakdown item scored: the item's own reason in English, the catalogue's note in Chinese."""
    if lang == "en":
        return reason
    base = name.split("(")[0]  # Xi'an 夹张/单调 carry the kind: jiazhang_or_dandiao(jiazhang)
    return pick(ITEM_NOTES[base], lang) if base in ITEM_NOTES else reason


def decision(text: str, lang: str) -> str:
    """A ``decisions`` entry (``A3 shaanxi.discard_payer=all``) as the option and its choice in words; an entry
    that names no option stays as written (it is a code, e.g. ``A2 ...``)."""
    match = _DECISION_OPTION.search(text)
    if not match or match.group(1) not in OPTION_LABELS:
        return text
    key, value = match.groups()
    return f"{option_label(key, lang)}: {option_value(key, value, lang)}"
