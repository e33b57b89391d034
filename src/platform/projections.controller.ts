import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { IsString } from 'class-validator';
import { AdminGuard } from '../infra/http/admin.guard';
import { ApiError } from '../kernel/http/api-error';
import { Optional } from '../kernel/http/optional';
import { ProjectionsService } from '../runtime/processing/processors.service';

export class RebuildProjectionsDto {
  @ApiPropertyOptional({ example: 'tenants' })
  @Optional()
  @IsString()
  projection?: string;
}

/** Rebuilds read models from the whole history (decision 7), on the operator API. */
@ApiTags('operator')
@ApiBearerAuth()
@UseGuards(AdminGuard)
@Controller('admin/v1/projections')
export class ProjectionsController {
  constructor(private readonly projections: ProjectionsService) {}

  @Post('rebuild')
  @HttpCode(200)
  // The operation's id from before the route left the tenants context's AdminController: clients keep it.
  @ApiOperation({ operationId: 'AdminController_rebuild' })
  async rebuild(@Body() body: RebuildProjectionsDto) {
    if (body.projection !== undefined && !this.projections.names().includes(body.projection)) {
      throw ApiError.invalid(`Unknown projection; known: ${this.projections.names().join(', ')}.`, 'projection');
    }
    return { data: await this.projections.rebuild(body.projection) };
  }
}
