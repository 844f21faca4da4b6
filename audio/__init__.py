"""The host's Russian voice: phrase catalogue, text-to-speech engines and the Opus clip cache.

Imports nothing from discord, mafiabot or engine (an import-linter contract enforces it).
"""
