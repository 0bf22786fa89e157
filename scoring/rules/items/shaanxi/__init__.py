"""Shaanxi 陕西麻将 components: hu score, 炮子, kongs. Each item's value is what the winner receives from it."""
