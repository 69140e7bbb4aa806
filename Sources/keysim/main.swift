print("keysim")
