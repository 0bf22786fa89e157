"""贵阳捉鸡 番 items (seed 003's fragment): 混一色 5, 清一色 10, 连庄 +1 per continuation."""
