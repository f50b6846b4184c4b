"""(in development)"""
