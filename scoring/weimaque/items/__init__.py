"""息 items of 安乡偎麻雀, one small class each: 硬息 (hard.py) and the 名堂息 numbered as in seed 003."""
