import { Module } from '@nestjs/common';
import { KeyProofErasureService } from './services/key-proof-erasure.service';
import { TypeOrmModule } from '@nestjs/typeorm';
import { RelayModule } from '../protocol';
import { UsersModule } from '../users';
import { KeyProofCeremony } from './entities/key-proof-ceremony.entity';
import { KeyProofController } from './controllers/key-proof.controller';
import { KeyProofResolutionController } from './controllers/key-proof-resolution.controller';
import { KeyProofRepository } from './key-proof.repository';
import { KeyProofService } from './services/key-proof.service';
import { KeyProofsController } from './controllers/key-proofs.controller';

/** The key-proof ceremony: owner side (`/key-proofs`) and the anonymous key-proof routes. */
@Module({
  imports: [TypeOrmModule.forFeature([KeyProofCeremony]), RelayModule, UsersModule],
  controllers: [KeyProofResolutionController, KeyProofController, KeyProofsController],
  providers: [KeyProofService, KeyProofRepository, KeyProofErasureService],
  exports: [KeyProofErasureService],
})
export class KeyProofModule {}
