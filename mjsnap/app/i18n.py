"""Every string the app shows, in 中文 and English. ``tr(lang)`` gives a function key -> text."""

from __future__ import annotations

from collections.abc import Callable

from mjsnap.app.ledger import LedgerError
from mjsnap.i18n_catalogue import (  # meld and shape names: the CLI's too
    MELD_NAMES, SHAPE_NAMES, WEIMAQUE_SETTLEMENT, explain, pick)
from mjsnap.labels import LabelError
from scoring.tiles import EN_NAMES, N_KINDS, ZH_NAMES

LANGS = ("zh", "en")
LANG_LABELS = {"zh": "中文", "en": "English"}

STRINGS: dict[str, tuple[str, str]] = {
    # page and navigation
    "app_title": ("麻将拍照算分", "Mahjong snap & score"),
    "nav_score": ("📷 算分", "📷 Score"),
    "nav_ledger": ("📒 记分", "📒 Ledger"),
    "nav_dice": ("🎲 骰子", "🎲 Dice"),
    "nav_weimaque": ("🀄 偎麻雀", "🀄 Weimaque"),
    "nav_label": ("🏷 标注", "🏷 Label"),
    # photo input
    "photo_header": ("1 · 拍下亮出的牌", "1 · Photo of the revealed hand"),
    "upload": ("上传或拍照（手机可直接打开相机）", "Upload or take a photo (opens the phone camera)"),
    "upload_button": ("选择照片", "Choose a photo"),
    "upload_limits": ("每个文件至多 {mb} MB · {kinds}", "Up to {mb} MB a file · {kinds}"),
    "upload_refused": ("不能用这个文件：只收 {kinds}，每个至多 {mb} MB", "This file cannot be used: {kinds} only, up to {mb} MB "
                       "a file"),
    "upload_csv_button": ("选择 CSV 文件", "Choose a CSV file"),
    "use_camera": ("用浏览器相机拍照", "Use the browser camera"),
    "camera": ("拍照", "Take a photo"),
    "camera_take": ("拍照", "Take the photo"),
    "camera_uploading": ("正在上传…", "Uploading…"),
    "camera_clear": ("清除照片", "Clear the photo"),
    "camera_ask": ("这个网页要用相机：请在浏览器里允许。", "This page needs the camera: allow it in the browser."),
    "camera_how": ("怎样允许", "How to allow it"),
    "sample": ("示例照片", "Sample photo"),
    "use_sample": ("用示例照片", "Use the sample"),
    "sample_plain_win": ("平胡", "A plain win"),
    "sample_seven_pairs": ("七对", "Seven pairs"),
    "sample_kong_and_chows": ("一个杠和几个吃", "A kong and chows"),
    "type_hand": ("或手动输入牌（如 123m456p789s11z + 赢牌）", "Or type the tiles (e.g. 123m456p789s11z + winning tile)"),
    "typed_tiles": ("手牌（不含赢牌）", "Tiles (without the winning tile)"),
    "typed_win": ("赢牌（可空，空则列出听牌）", "Winning tile (leave empty to list the waits)"),
    "use_typed": ("用这手牌", "Use these tiles"),
    "not_an_image": ("“{name}” 不是可读的照片（支持 JPEG、PNG、WebP、HEIC）",
                     "“{name}” is not a readable photo (JPEG, PNG, WebP or HEIC)"),
    "bad_tiles": ("牌写错了（写法如 123m456p789s11z，字牌 1z-7z = 东南西北中发白）", "The tiles are not valid: {detail}"),
    "bad_tile_at": ("牌写错了：第 {n} 个字符“{char}”不对（写法如 123m456p789s11z）",
                    "The tiles are not valid at character {n} “{char}” (write them like 123m456p789s11z)"),
    "one_win_tile": ("赢牌只写一张（如 5s），这里写了 {n} 张", "The winning tile is one tile (e.g. 5s), not {n}"),
    "typed_too_many": ("牌写错了：{tile} 写了 {n} 张，一种牌只有 4 张",
                       "The tiles are not valid: {n} copies of {tile}, a set has only 4"),
    "no_model": (
        "没有找到识别模型（{path}）。可以手动输入牌。",
        "No recognition model found in {path} ({detail}). You can type the tiles instead.",
    ),
    "timings": ("识别 {total} ms（读图 {decode}，检测 {detect}，整理 {read}）· 模型 {version}",
                "Read in {total} ms (decode {decode}, detect {detect}, arrange {read}) · model {version}"),
    "timings_with_load": ("识别 {total} ms（读图 {decode}，载入模型 {model}，检测 {detect}，整理 {read}）· 模型 {version}",
                          "Read in {total} ms (decode {decode}, load the model {model}, detect {detect}, arrange "
                          "{read}) · model {version}"),
    "photo_caption": ("{n} 张牌被识别；红框 = 把握低，请核对。点照片上的牌可以修改它",
                      "{n} tiles found; red = low confidence, please check. Tap a tile on the photo to fix it"),
    # hand view
    "hand_header": ("2 · 核对手牌（点一张牌来修改）", "2 · Check the hand (tap a tile to fix it)"),
    "concealed": ("手牌", "Concealed"),
    "melds": ("副露 / 杠", "Melds / kongs"),
    "win_tile": ("赢牌", "Winning tile"),
    "no_win_tile": ("没有赢牌：按 13 张听牌显示", "No winning tile: shown as a 13-tile hand with its waits"),
    "aside": ("不在手牌中的牌", "Tiles not in the hand"),
    "tile_count": ("共 {n} 张", "{n} tiles"),
    "read_warnings": ("识别提示", "Reading notes"),
    "photo_no_tiles": ("照片里没有找到牌：把牌拍近一些、拍清楚再试，或在上面手动输入牌",
                       "No tiles were found in the photo: take it closer and sharper, or type the tiles above"),
    "add_tile": ("＋ 加一张牌", "+ Add a tile"),
    "reset_hand": ("↺ 恢复识别结果", "↺ Back to the reading"),
    # editor
    "editing": ("修改第 {n} 张：{name}", "Fixing tile {n}: {name}"),
    "adding": ("加一张牌到：{where}", "Add a tile to: {where}"),
    "pick_face": ("选正确的牌", "Pick the right tile"),
    "likely_faces": ("识别器觉得也可能是", "The classifier's next guesses"),
    "make_win": ("设为赢牌", "Make it the winning tile"),
    "to_concealed": ("移到手牌", "Move to concealed"),
    "to_meld": ("移到副露 {n}", "Move to meld {n}"),
    "to_new_meld": ("新副露", "New meld"),
    "set_aside": ("不属于这手牌", "Not part of the hand"),
    "delete": ("不是牌（删除）", "Not a tile (delete)"),
    "done": ("完成", "Done"),
    "meld_n": ("副露 {n}", "Meld {n}"),
    "meld_type": ("类型", "Type"),
    "break_meld": ("拆开", "Break up"),
    "kong_fed_by": ("明杠：谁打出的第四张", "Exposed kong: who discarded the 4th tile"),
    "pick_seat": ("选座位", "Pick the seat"),
    "no_win_clear": ("去掉赢牌（看听牌）", "Remove the winning tile (see waits)"),
    "label_saved": ("已保存为训练标注：{path}", "Saved as a training label: {path}"),
    "label_review": (
        "手动加上的 {n} 张牌（橙框）在照片上没有框：这张照片已放入待复核（{folder}），"
        "请在“🏷 标注”页给它们画框后再用于训练。",
        "{n} tile(s) added by hand (orange frame) have no box in the photo: the photo waits for review in {folder}; "
        "draw their boxes on the 🏷 Label page before it is trained on.",
    ),
    "label_failed": ("标注没有保存：{detail}", "The label was not saved: {detail}"),
    # context
    "context_header": ("3 · 规则和这一局", "3 · Rules and this hand"),
    "ruleset": ("规则", "Rules"),
    "ledger_ruleset": ("规则：{name}", "Rules: {name}"),  # above the ledger when every hand shares it
    "rule_options": ("规则选项", "Rule options"),
    "bad_option": ("规则选项有误：{detail}", "A rule option is not valid: {detail}"),
    "seats_bets": ("座位和下注", "Seats and bets"),
    "winner": ("赢家", "Winner"),
    "dealer": ("庄家", "Dealer"),
    "self_draw": ("自摸", "Self-drawn"),
    "discarder": ("点炮", "Discarded by"),
    "bets": ("炮子 / 注（默认上一局）", "Bets 炮子 / 注 (default: last hand's)"),
    "situations": ("特殊情况", "Special situations"),
    "kong_replacement": ("杠上花 / 杠后开花", "Win on a kong replacement (杠上花)"),
    "last_tile": ("海底", "Last tile (海底)"),
    "heavenly": ("天胡", "Heavenly hand (天胡)"),
    "earthly": ("地胡", "Earthly hand (地胡)"),
    "robbing_kong": ("抢杠", "Robbing a kong (抢杠)"),
    "after_kong_discard": ("杠后点胡", "Win on a discard right after a kong (杠后点胡)"),
    "missing_suit": ("定缺（缺一门）", "Missing suit (定缺)"),
    "missing_suit_guess": ("按照片预填：{suit}", "Pre-filled from the tiles: {suit}"),
    "bad_context": ("这一局的情况有误：{detail}", "The hand's situation is not valid: {detail}"),
    # result
    "result_header": ("4 · 结果", "4 · Result"),
    "shapes": ("牌型", "Shape"),
    "not_a_win": ("不能胡：{detail}。如果有牌认错了，点第 2 步里的那张牌改正。",
                  "Not a win: {detail}. If a tile was misread, tap it in step 2 to fix it."),
    "hand_problem": ("这手牌还不完整：{detail}", "The hand is not complete yet: {detail}"),
    "meld_problem": ("副露 {n}：{detail}", "Meld {n}: {detail}"),
    "item": ("项目", "Item"),
    "value": ("分 / 番", "Points / fan"),
    "why": ("说明", "Why"),
    "settlement": ("结算", "Settlement"),
    "settlement_together": ("一炮多响合计结算（{n} 家胡这张牌）", "Settlement of the whole discard ({n} winners, 一炮多响)"),
    "win_of": ("{name} 胡", "{name}'s win"),
    "points_together": ("合计", "Together"),
    "seat": ("座位", "Seat"),
    "player": ("玩家", "Player"),
    "role": ("身份", "Role"),
    "bet": ("炮子", "Bet"),
    "points": ("得分", "Points"),
    "role_winner": ("胡", "winner"),
    "role_dealer": ("庄", "dealer"),
    "role_discarder": ("点炮", "discarder"),
    "total_fan": ("共 {fan} 番", "{fan} fan in total"),
    "winner_gets": ("{name} 得 {points} 分", "{name} gets {points} points"),
    "decisions": ("规则选项起作用：{items}", "Rule options that decided: {items}"),
    "warnings": ("注意：{items}", "Note: {items}"),
    "add_to_ledger": ("记入记分表", "Add to the ledger"),
    "added_to_ledger": ("已记入第 {n} 局", "Added as hand {n}"),
    "another_winner": ("一炮多响：还有一家也胡这张", "Another player won on this discard too (一炮多响)"),
    "winner_kept": ("已记下 {name} 的胡牌。请输入下一家赢家的牌（同一张点炮）。",
                    "{name}'s win is kept. Now enter the next winner's hand (same discard)."),
    "multi_win_pending": ("一炮多响：已记 {names}，点炮 {discarder}", "Same discard (一炮多响): {names} kept, discarded by {discarder}"),
    "multi_win_cancel": ("取消一炮多响", "Cancel the multiple win"),
    # said where the result was once the hand is in the ledger (the notice at the top is off a phone's screen)
    "recorded_here": ("这手牌已记入记分表（第 {n} 局）", "This hand is in the ledger (hand {n})"),
    "recorded_next": ("下一局：在第 1 步换照片或输入牌。记错了：到“📒 记分”页撤销上一局。",
                      "Next hand: a new photo or typed tiles in step 1. Recorded by mistake: undo the last hand on "
                      "the 📒 Ledger page."),
    "add_multi_win": ("记入记分表（一炮多响，共 {n} 家）", "Add to the ledger ({n} winners on one discard)"),
    "waits_header": ("听牌：胡哪张、得几分", "Waits: which tile wins and what it scores"),
    "no_waits": ("这手牌没有听牌（在这个规则下）。如果有牌认错了，点第 2 步里的那张牌改正；少了牌就点“＋ 加一张牌”。",
                 "This hand waits on nothing (under these rules). If a tile was misread, tap it in step 2 to fix "
                 "it; if one is missing, use “+ Add a tile”."),
    "wait_not_allowed": ("不能胡：{detail}", "cannot win: {detail}"),
    "wait_scores": ("{name} 得 {points}", "{name} gets {points}"),
    # ledger
    "ledger_header": ("记分表", "Game ledger"),
    "players": ("玩家名字", "Player names"),
    "seat_n": ("座位 {n}", "Seat {n}"),
    "rename": ("改名", "Rename"),
    "next_dealer": ("下一局庄家：{name}", "Next dealer: {name}"),
    "hand_no": ("局", "Hand"),
    "drawn": ("荒庄", "drawn"),
    "record_draw": ("记一局荒庄（庄家连庄）", "Record a drawn hand (the dealer stays)"),
    "undo": ("撤销上一局", "Undo the last hand"),
    "export_csv": ("导出 CSV", "Export CSV"),
    "import_csv": ("导入 CSV", "Import CSV"),
    "imported": ("已导入 {n} 局", "Imported {n} hands"),
    "bad_csv": ("CSV 不能导入：{detail}", "The CSV cannot be imported: {detail}"),
    "csv_malformed": ("文件不是记分表导出的 CSV 格式", "not a ledger CSV ({detail})"),
    "csv_line": ("第 {line} 行：{detail}", "line {line}: {detail}"),
    "ledger_error": ("不能记入：{detail}", "Cannot record: {detail}"),
    "empty_ledger": ("还没有记录。算完分后点“记入记分表”。", "No hands yet. After scoring, press “Add to the ledger”."),
    "clear_ledger": ("清空记分表", "Clear the ledger"),
    # the ledger a clear or an import replaced, kept aside; switching keeps the current one aside in turn
    "swap_back_ledger": ("换回另一份记分表（{n} 局）", "Switch back to the other ledger ({n} hands)"),
    # dice
    "dice_header": ("骰子：从哪里开始抓牌", "Dice: where the deal starts"),
    "convention": ("地区规矩", "Regional convention"),
    "dice_dealer": ("庄家（第一个掷骰子）", "Dealer (throws first)"),
    "first_throw": ("第一次（庄家）", "First throw (dealer)"),
    "second_throw": ("第二次（{name}）", "Second throw ({name})"),
    "die": ("骰子 {n}", "Die {n}"),
    "dice_second_thrower": ("第一次 {total} 点：从庄家逆时针数到 {name}，由 {name} 再掷一次。",
                            "First throw {total}: counting counterclockwise from the dealer lands on {name}, "
                            "who throws again."),
    "dice_wall": ("从 {name} 门前的牌墙开始。", "The deal starts from {name}'s wall."),
    "dice_wall_counted": ("{total} 点：从庄家逆时针数到 {name}，从 {name} 门前的牌墙开始。",
                          "{total}: counting counterclockwise from the dealer lands on {name}; the deal starts "
                          "from {name}'s wall."),
    "dice_skip_both": ("两次点数相加 {a} + {b} = {skip}：从 {name} 的右手往左数，留下 {skip} 墩。",
                       "Both throws {a} + {b} = {skip}: count {skip} stacks from {name}'s right hand to the left "
                       "and leave them."),
    "dice_skip_small": ("掷大拿小：小的那颗是 {skip}，从 {name} 的右手往左留 {skip} 墩。",
                        "The smaller die shows {skip}: leave {skip} stacks from {name}'s right hand."),
    "dice_skip_sum": ("从 {name} 的右手往左数 {skip} 墩。", "Count {skip} stacks from {name}'s right hand."),
    "dice_overflow": ("墩数超过这一面墙，接着数到 {name} 的墙。", "The count runs past that wall into {name}'s wall."),
    "dice_start": ("庄家从 {name} 墙的第 {stack} 墩开始抓，每次两墩，顺时针。",
                   "The dealer takes from stack {stack} of {name}'s wall, two stacks at a time, clockwise."),
    "dice_left": ("这面墙还剩 {left} 墩：{grabs} 把{split}。", "{left} stacks left in that wall: {grabs} grab(s){split}."),
    "dice_split": ("，下一把两头凑", ", then one grab split across two walls"),
    "dice_diagram": ("牌墙示意（灰 = 留下的墩，红 = 第一把）", "The walls (grey = stacks left, red = first grab)"),
    "dice_source": ("依据：种子 {seed}", "Source: seed {seed}"),
    # labelling
    "lp_folder": ("照片文件夹", "Photo folder"),
    "lp_dataset": ("标注保存到（数据集文件夹）", "Save labels into (dataset folder)"),
    "lp_no_photos": ("这个文件夹里没有照片", "No photos in this folder"),
    "lp_enter_folder": ("在上面填写照片所在的文件夹（运行本程序的电脑上的路径），如 /home/me/photos",
                        "Type the folder the photos are in above (a path on the computer running the app), e.g. "
                        "/home/me/photos"),
    "lp_no_folder": ("没有这个文件夹：{folder}", "No such folder: {folder}"),
    "lp_no_dataset": ("请填写标注保存到哪个数据集文件夹", "Name the dataset folder the labels are saved into"),
    "lp_folder_unreadable": ("打不开这个文件夹：{folder}", "Cannot open the folder {folder}: {detail}"),
    "lp_bad_dataset": ("不能用这个数据集文件夹：{detail}", "Cannot use this dataset folder: {detail}"),
    "lp_photo": ("照片", "Photo"),
    "lp_progress": ("已完成 {done} / {total}", "{done} of {total} done"),
    "lp_from_saved": ("已保存的标注（{split}）", "saved label ({split})"),
    "lp_from_model": ("模型 {version} 的预标注，请检查", "pre-labelled by model {version}: check every box"),
    "lp_box_problem": ("第 {n} 个框：{detail}", "box {n}: {detail}"),
    "lp_damaged": ("{path} 已损坏：{detail}", "{path}: {detail}"),
    "lp_other_photo": ("{path} 是另一张同名照片：它的框没有拿来，也不会被覆盖（保存前请给这张照片改名）",
                       "{path} is another photo of this name: its boxes are not shown here, and it will not be "
                       "replaced (rename this photo to save it)"),
    "lp_no_model": ("没有模型，从空白开始", "no model, starting empty: {detail}"),
    "lp_tile": ("牌", "tile"),
    "lp_box": ("框", "Box"),
    "lp_pick": ("为所选框选择牌", "Set the selected box's tile"),
    "lp_add": ("➕ 添加框", "➕ Add box"),
    "lp_delete": ("🗑 删除所选框", "🗑 Delete selected box"),
    "lp_done": ("✅ 完成并保存", "✅ Done: save"),
    "lp_later": ("💾 稍后再看", "💾 Save for later"),
    "lp_prev": ("⬅ 上一张", "⬅ Previous"),
    "lp_next": ("下一张 ➡", "Next ➡"),
    "lp_saved": ("已保存：{path}", "saved: {path}"),
    "lp_not_saved": ("没有保存：{detail}", "Not saved: {detail}"),
    "lp_tap_help": ("点照片上的框来选中它；点没有框的地方，就在那里加一个框。箭头移动选中的框，放大、缩小改它的大小",
                    "tap a box on the photo to pick it; tap where there is no box to add one there. The arrows move "
                    "the picked box, bigger and smaller resize it"),
    "lp_bigger": ("放大", "Bigger"),
    "lp_whole_photo": ("显示整张照片（默认只显示牌所在的部分）", "Show the whole photo (else the part with the tiles)"),
    "lp_smaller": ("缩小", "Smaller"),
    "lp_table_help": ("改数字即可移动框；表格末行可添加，勾选行可删除", "edit numbers to move a box; add or delete rows"),
    # 偎麻雀
    "wmq_header": ("安乡偎麻雀 · 算息", "Anxiang Weimaque · count 息"),
    "wmq_intro": ("摆出胡牌：6句 + 麻雀。团圆、转弯由牌自动判断。",
                  "Lay out the winning hand: six 句 and the 麻雀. 团圆 and 转弯 are read off the cards."),
    "wmq_use_text": ("用文字输入", "Type the hand instead"),
    "wmq_text": ("手牌（如 碰 柒柒柒, 煨 3 3 3, …, 雀 捌捌*）", "Hand (e.g. 碰 柒柒柒, 煨 3 3 3, …, 雀 捌捌*)"),
    "wmq_sentence": ("第{n}句", "句 {n}"),
    "wmq_pair": ("麻雀", "麻雀 (pair)"),
    "wmq_card": ("牌", "card"),
    "wmq_win_in": ("揭牌胡在", "Won with the 揭 card in"),
    "wmq_win_none": ("不指定", "not given"),
    "wmq_last_card": ("海底胡（最后一张）", "海底胡 (last card)"),
    "wmq_sqs": ("手牵手（需自定息数）", "手牵手 (needs a house value)"),
    "wmq_switches": ("规则选择（原文未定）", "Rule switches (left open by the seed)"),
    "wmq_order": ("倍数与加息的先后", "multipliers vs additions"),
    "wmq_erqishi": ("二七十 / 贰柒拾 算一句", "二七十 / 贰柒拾 is a 句"),
    "wmq_mixed": ("大小绞牌（一一壹）算一句", "mixed 大小 句 (一一壹)"),
    "wmq_sqs_xi": ("手牵手 自定息数（0 = 不算）", "手牵手 house value (0 = not scored)"),
    "wmq_bad_hand": ("手牌有误：{detail}", "The hand is not valid: {detail}"),
    "wmq_line": ("{label}：{text}", "{label}: {text}"),  # a caption's heading and its text, full-width in 中文
    "wmq_sep": ("；", "; "),
    "wmq_at": ("{detail}：“{token}”", "{detail}: “{token}”"),
    "wmq_total": ("总息 {total}", "Total 息: {total}"),
    "wmq_hard": ("硬息", "hard 息"),
    "wmq_no_win": ("不能胡：{detail}", "No win: {detail}"),
    "wmq_item": ("项目", "item"),
    "wmq_kind": ("类", "kind"),
    "wmq_value": ("息", "息"),
    "wmq_why": ("说明", "reason"),
    "wmq_decisions": ("规则选择", "switches used"),
    "wmq_warnings": ("注意", "note"),
    "wmq_yes": ("是", "yes"),
    "wmq_no": ("否", "no"),
    "wmq_not_scored": ("不算", "not scored"),
    "wmq_settlement": WEIMAQUE_SETTLEMENT,
}

RULESET_NAMES: dict[str, tuple[str, str]] = {
    "shaanxi": ("陕西麻将（136 张）", "Shaanxi (136 tiles)"),
    "shaanxi108": ("陕西麻将（108 张）", "Shaanxi (108 tiles)"),
    "xian": ("西安麻将", "Xi'an"),
    "weinan": ("渭南麻将", "Weinan"),
}

CONVENTION_NAMES: dict[str, tuple[str, str]] = {
    "shaanxi": ("陕西：掷两次，两次点数相加", "Shaanxi: two throws, both sums added"),
    "xian": ("西安：掷两次，两次点数相加", "Xi'an: two throws, both sums added"),
    "weinan": ("渭南：掷一次，留小点数的墩", "Weinan: one throw, leave the smaller die's stacks"),
    "smaller_die": ("掷大拿小（种子 003）", "Throw big, take small (seed 003)"),
    "guobiao": ("国标开牌：按点数数墩", "Guobiao: count the total in stacks"),
}

RELATIVE_SEATS: tuple[tuple[str, str], ...] = (  # a seat as seen from the dealer, after the player's name there
    ("自己", "the dealer"),
    ("下家，右手", "on the right, next"),
    ("对家", "opposite"),
    ("上家，左手", "on the left, previous"),
)

SPLIT_NAMES: dict[str, tuple[str, str]] = {"train": ("训练集", "train"), "val": ("验证集", "val"),
                                           "review": ("待复核", "review")}

XI_KINDS: dict[str, tuple[str, str]] = {
    "hard": ("硬息", "hard"), "add": ("名堂", "named"), "multiply": ("倍数", "×"), "house": ("自定", "house"),
}

XI_ORDERS: dict[str, tuple[str, str]] = {
    "multiply_then_add": ("先乘后加（硬息×N + 名堂）", "multiply, then add"),
    "add_then_multiply": ("先加后乘（(硬息+名堂)×N）", "add, then multiply"),
}

# the 偎麻雀 switches as its page names them, for the decisions a result lists (``weimaque.erqishi_sets=false``)
WEIMAQUE_SWITCHES = {"multiplier_order": "wmq_order", "erqishi_sets": "wmq_erqishi", "mixed_sets": "wmq_mixed",
                     "shou_qian_shou_xi": "wmq_sqs_xi"}
WEIMAQUE_CHOICES = {"true": "wmq_yes", "false": "wmq_no", "none": "wmq_not_scored"}


def weimaque_decision(text: str, lang: str) -> str:
    """A 偎麻雀 decision (``weimaque.erqishi_sets=false``) as the switch and its choice, named as on the page (the
    page and ``mjsnap weimaque``); an entry that names no switch stays as written."""
    t = tr(lang)
    key, _, value = text.removeprefix("weimaque.").partition("=")
    if key not in WEIMAQUE_SWITCHES:
        return text
    if key == "multiplier_order":
        choice = pick(XI_ORDERS[value], lang)
    else:
        choice = t(WEIMAQUE_CHOICES[value]) if value in WEIMAQUE_CHOICES else value
    return t("wmq_line", label=t(WEIMAQUE_SWITCHES[key]), text=choice)


SUIT_NAMES: dict[str, tuple[str, str]] = {"m": ("万", "characters"), "p": ("筒", "dots"), "s": ("条", "bamboo")}


def tr(lang: str) -> Callable[..., str]:
    """The translator for ``lang``: ``t("key", name=...)`` -> text with the placeholders filled."""
    column = LANGS.index(lang) if lang in LANGS else 0

    def t(key: str, **values: object) -> str:
        text = STRINGS[key][column]
        return text.format(**values) if values else text

    return t


def tile_name(kind: int, lang: str) -> str:
    """A tile's full name (五筒 / 5 Dots); the back and flower classes too."""
    if kind < N_KINDS:
        return EN_NAMES[kind] if lang == "en" else ZH_NAMES[kind]
    return pick(("牌背", "back"), lang) if kind == N_KINDS else pick(("花", "flower"), lang)


def ledger_problem(exc: LedgerError, lang: str) -> str:
    """Why the ledger refused, in the page language (the CSV line first, where there is one)."""
    text = explain(exc.code, lang, exc.detail)
    return tr(lang)("csv_line", line=exc.line, detail=text) if exc.line is not None else text


def label_problem(exc: LabelError | OSError | ValueError, lang: str) -> str:
    """Why a label was not saved or read, in the page language: mjsnap.labels' message in English (it names the
    box, line or path), the code's sentence in Chinese, after the table row or the file it concerns."""
    if isinstance(exc, LabelError):
        text = explain(exc.code, lang, str(exc))
        return tr(lang)("lp_box_problem", n=exc.box, detail=text) if exc.box is not None and lang != "en" else text
    text = explain("label_file_error", lang, str(exc))
    filename = getattr(exc, "filename", None)  # an OSError's; a label that is not text, a path with a NUL have none
    return f"{text}：{filename}" if filename and lang != "en" else text
